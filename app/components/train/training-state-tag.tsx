// A set's state as a tag; while training, its progress; when failed, why.
import { Progress, Tag, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import type { TTrainingSetStateView } from "../../../server/knowledge/training-sets.schema";
import { STATE_COLORS } from "./train-format";

export function TrainingStateTag({
  state,
  progress,
  reason,
  compact = false,
}: {
  state: TTrainingSetStateView;
  progress?: number;
  reason?: string | null;
  compact?: boolean;
}) {
  const { t } = useTranslation("train");
  const tag = (
    <Tag color={STATE_COLORS[state]} data-testid="training-state" data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
  return (
    <span className="train-state">
      {state === "unavailable" ? <Tooltip title={t("state_hint.unavailable")}>{tag}</Tooltip> : tag}
      {state === "training" && !compact && (
        <Progress percent={progress ?? 0} size="small" aria-label={t("progress", { progress: progress ?? 0 })} data-testid="training-progress" />
      )}
      {state === "failed" && reason && !compact && (
        <span className="train-state__reason">{t(reason, { ns: "errors", defaultValue: t("training_failed", { ns: "errors" }) })}</span>
      )}
    </span>
  );
}
