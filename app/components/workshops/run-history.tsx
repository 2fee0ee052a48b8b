// Earlier runs, in a sheet over the run page: each one's topic, when it started and how it stands
// or why it ended; any of them reopens.
import { PlusOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { uiLocale } from "../../i18n/config";
import type { TRunSummary } from "../../../server/workshops/workshops.schema";
import { H5Sheet } from "../h5/h5-sheet";

type TProps = { runs: TRunSummary[]; currentId: string | null; onPick: (id: string) => void; onNew: () => void; onClose: () => void };

export function RunHistory({ runs, currentId, onPick, onNew, onClose }: TProps) {
  const { t, i18n } = useTranslation("workshops");
  const when = (iso: string) => new Date(iso).toLocaleString(uiLocale(i18n.language), { dateStyle: "short", timeStyle: "short" });
  const state = (r: TRunSummary) => (r.status === "ended" ? t(`run.ended_short.${r.endReason ?? "failed"}`) : t(`run.status.${r.status}`));
  return (
    <H5Sheet title={t("run.history")} closeLabel={t("run.close")} testId="run-history" onClose={onClose}>
      <button type="button" className="h5-btn h5-btn--block" onClick={onNew} data-testid="run-history-new">
        <PlusOutlined /> {t("run.new_run")}
      </button>
      {runs.length === 0 ? (
        <p className="h5-muted">{t("run.history_empty")}</p>
      ) : (
        <ul className="h5-history">
          {runs.map((r) => (
            <li key={r.id}>
              <button type="button" className={r.id === currentId ? "is-current" : undefined} onClick={() => onPick(r.id)} data-testid="run-history-item">
                <span>{r.topic}</span>
                <small>
                  {when(r.createdAt)} · {state(r)}
                </small>
              </button>
            </li>
          ))}
        </ul>
      )}
    </H5Sheet>
  );
}
