// The editor's actions (save, publish) through tRPC: the form is checked with the server's schema
// first, and the server's field refusals are put back on the fields they name (and reported, so the
// editor can unfold the sections that hold them).
import { App, type FormInstance } from "antd";
import { useTranslation } from "react-i18next";
import type { TAgentDetail, TAgentInput } from "../../../server/agents/agents.schema";
import { ApiError, fieldErrorsOf } from "../../lib/api-client";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { checkWholeForm, groupFieldErrors, toAgentInput, type TAgentFormValues } from "./agent-form-values";

export type TBusy = "save" | "publish" | "submit" | null;

type TFieldName = (string | number)[];

export function useAgentActions(
  form: FormInstance<TAgentFormValues>,
  detail: TAgentDetail | null,
  onSaved: (d: TAgentDetail) => void,
  onRefused?: (names: TFieldName[]) => void,
) {
  const { t } = useTranslation("agents");
  const { message } = App.useApp();

  const showError = (err: unknown) => {
    if (!(err instanceof ApiError)) {
      message.error(String(err));
      return;
    }
    const fields = fieldErrorsOf(err).filter((f) => f.path);
    // Schema refusals arrive translated; a service refusal names its code, and its sentence is the description.
    const say = (m: string) => (/^[a-z_.]+$/.test(m) ? (fields.length === 1 ? err.description : t(m, { ns: "errors" })) : m);
    if (fields.length) {
      const grouped = groupFieldErrors(fields);
      form.setFields(grouped.map((f) => ({ name: f.name as never, errors: f.errors.map(say) })));
      onRefused?.(grouped.map((f) => f.name));
    }
    message.error(err.description);
  };

  /** Checks the form as the server will; false (with the errors shown) when it would be refused. */
  const check = async (): Promise<TAgentInput | null> => {
    const fieldsOk = await form.validateFields().then(
      () => true,
      () => false,
    );
    // Hidden and folded fields live in the store too: take everything, not only what is on screen.
    const values = form.getFieldsValue(true) as TAgentFormValues;
    const whole = checkWholeForm(values);
    if (whole.length) form.setFields(whole.map((f) => ({ name: f.name as never, errors: f.errors.map((m) => t(m, { ns: "errors" })) })));
    if (!fieldsOk || whole.length) {
      onRefused?.(
        form
          .getFieldsError()
          .filter((f) => f.errors.length)
          .map((f) => f.name),
      );
      message.error(t("editor.fix_errors"));
      return null;
    }
    return toAgentInput(values) as TAgentInput;
  };

  const attempt = useMutation((_kind: TBusy, job: () => Promise<unknown>) => job(), {
    onError: (err) => {
      showError(err);
      return true;
    },
  });
  const busy: TBusy = attempt.busyKey;
  const run = async <T>(kind: TBusy, job: () => Promise<T>): Promise<T | null> => ((await attempt.run(kind, job)) as T | undefined) ?? null;

  const save = async (opts: { quiet?: boolean } = {}): Promise<TAgentDetail | null> => {
    const input = await check();
    if (!input) return null;
    const saved = await run("save", () =>
      callTrpc(() => (detail ? trpc.agents.saveDraft.mutate({ id: detail.id, agent: input }) : trpc.agents.create.mutate(input))),
    );
    if (saved) {
      onSaved(saved);
      if (!opts.quiet) message.success(t("editor.saved", { version: saved.config.version }));
    }
    return saved;
  };

  const publish = async (id: string) => {
    const published = await run("publish", () => callTrpc(() => trpc.agents.publish.mutate({ id })));
    if (published) {
      onSaved(published);
      message.success(t("editor.published", { version: published.live?.version ?? "" }));
    }
    return published;
  };

  return { busy, save, publish, showError };
}
