// Stop, disable, enable, train again and delete, with the confirmations that say what each does
// (deleting names the agents that lose the set).
import { App, type ButtonProps } from "antd";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import type { TTrainingSetAction, TTrainingSetSummary } from "../../../server/knowledge/training-sets.schema";

export type TSetAction = TTrainingSetAction | "delete";
type TSetRef = Pick<TTrainingSetSummary, "id" | "name" | "agents">;

export function useTrainingSetActions(onChanged: (id: string, result: TTrainingSetSummary | null) => void) {
  const { t } = useTranslation("train");
  const { message, modal } = App.useApp();
  const { run, busyKey } = useMutation(async (set: TSetRef, kind: TSetAction) => {
    if (kind === "delete") {
      await callTrpc(() => trpc.trainingSets.delete.mutate({ id: set.id }));
      message.success(t("done.deleted"));
      onChanged(set.id, null);
    } else {
      const summary = await callTrpc(() => trpc.trainingSets.act.mutate({ id: set.id, action: kind }));
      message.success(t(`done.${kind}`));
      onChanged(set.id, summary);
    }
  });
  const busyId = busyKey?.id ?? null;

  const ask = (set: TSetRef, kind: TSetAction) => {
    if (kind === "enable" || kind === "retrain") return void run(set, kind);
    const names = set.agents.map((a) => a.name).join(t("list_separator"));
    const content =
      kind === "delete" ? (
        <>
          <p>{t("confirm.delete_body")}</p>
          {set.agents.length > 0 && <p data-testid="delete-agents-warning">{t("confirm.delete_used", { count: set.agents.length, names })}</p>}
        </>
      ) : (
        t(`confirm.${kind}_body`)
      );
    modal.confirm({
      title: t(`confirm.${kind}_title`, { name: set.name }),
      content,
      okButtonProps: { danger: kind === "delete", "data-testid": `train-${kind}-ok` } as ButtonProps,
      onOk: () => run(set, kind),
    });
  };

  return { busyId, ask };
}
