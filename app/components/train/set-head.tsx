// The head of a set's page: its name, type and state (with progress), characters, the agents that
// use it, and the actions its state allows.
import { ArrowLeftOutlined } from "@ant-design/icons";
import { Alert, Progress, Tag } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TTrainingSetDetail } from "../../../server/knowledge/training-sets.schema";
import { AppLink, useAppNavigate } from "../app-link";
import { SetActionButtons } from "./set-action-buttons";
import { formatNumber } from "./train-format";
import { TrainingStateTag } from "./training-state-tag";
import { useTrainingSetActions } from "./use-set-actions";

type TProps = { detail: TTrainingSetDetail; facts?: ReactNode; onChanged: () => void };

export function SetHead({ detail, facts, onChanged }: TProps) {
  const { t, i18n } = useTranslation("train");
  const navigate = useAppNavigate();
  const { busyId, ask } = useTrainingSetActions((_id, result) => (result ? onChanged() : navigate("/train")));
  return (
    <>
      <div className="train-head">
        <div className="train-head__title">
          <AppLink to="/train" aria-label={t("title")}>
            <ArrowLeftOutlined />
          </AppLink>
          <h1 className="console__title" data-testid="train-set-name">
            {detail.name}
          </h1>
          <Tag>{t(`types.${detail.type}`)}</Tag>
          <TrainingStateTag state={detail.state} progress={detail.progress} reason={detail.failure_reason} compact />
        </div>
        <SetActionButtons set={detail} busy={busyId === detail.id} onAction={(k) => ask(detail, k)} withEdit={false} size="middle" />
      </div>
      <div className="train-head__facts">
        <span data-testid="train-set-chars">
          {t("list.chars")}: {formatNumber(detail.char_count, i18n.language)}
        </span>
        {facts}
        <span>
          {t("list.agents")}:{" "}
          {detail.agents.length
            ? detail.agents.map((a) => (
                <AppLink key={a.id} to={`/agentDetail?id=${encodeURIComponent(a.id)}`}>
                  <Tag color="blue">{a.name}</Tag>
                </AppLink>
              ))
            : t("list.no_agents")}
        </span>
      </div>
      {detail.state === "training" && (
        <Progress
          percent={detail.progress}
          status="active"
          aria-label={t("progress", { progress: detail.progress })}
          style={{ marginBottom: 16 }}
          data-testid="training-progress"
        />
      )}
      {detail.state === "failed" && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t("state.failed")}
          description={t(detail.failure_reason ?? "training_failed", { ns: "errors", defaultValue: t("training_failed", { ns: "errors" }) })}
          data-testid="train-failed"
        />
      )}
      {detail.state === "disabled" && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t("state.disabled")} description={t("confirm.disable_body")} />
      )}
      {detail.state === "unavailable" && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t("state.unavailable")} description={t("state_hint.unavailable")} />
      )}
    </>
  );
}
