// The agent's training sets (training_set_ids): a multi-select of the owner's sets with their type
// and state, the chosen sets listed with their state, and a warning for a set the agent cannot
// answer from now (failed, stopped, disabled, unavailable, deleted).
import { Alert, Empty, Form, Select, Space, Tag } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../lib/trpc";
import { ZAgentInput } from "../../../server/agents/agents.schema";
import type { TTrainingSetSummary } from "../../../server/knowledge/training-sets.schema";
import { AppLink } from "../app-link";
import { editPathOf } from "../train/train-format";
import { TrainingStateTag } from "../train/training-state-tag";
import { usePolling } from "../train/use-polling";
import { valueRule } from "./agent-rules";

const NOT_ANSWERING = ["failed", "stopped", "disabled", "unavailable"];

export function TrainingSetsSection() {
  const { t } = useTranslation("train");
  const { t: ta } = useTranslation("agents");
  const chosen = (Form.useWatch("training_set_ids") as string[] | undefined) ?? [];
  const [sets, setSets] = useState<TTrainingSetSummary[] | null>(null);
  const load = useCallback(async () => setSets(await callTrpc(() => trpc.trainingSets.list.query())), []);
  useEffect(() => {
    load().catch(() => setSets([]));
  }, [load]);
  const byId = new Map((sets ?? []).map((s) => [s.id, s]));
  usePolling(
    chosen.some((id) => byId.get(id)?.state === "training"),
    load,
    3000,
  );

  const label = (s: TTrainingSetSummary) => (
    <Space size={4}>
      <span>{s.name}</span>
      <Tag>{t(`types.${s.type}`)}</Tag>
      <TrainingStateTag state={s.state} compact />
    </Space>
  );
  const options = [
    ...(sets ?? []).map((s) => ({ value: s.id, label: label(s), name: s.name })),
    // A chosen set that is gone (deleted): shown so it can be removed; saving refuses it.
    ...(sets ? chosen.filter((id) => !byId.has(id)).map((id) => ({ value: id, label: <Tag color="error">{t("picker.deleted")}</Tag>, name: "" })) : []),
  ];
  const warnings = chosen.map((id) => byId.get(id)).filter((s): s is TTrainingSetSummary => Boolean(s && NOT_ANSWERING.includes(s.state)));
  const gone = sets ? chosen.filter((id) => !byId.has(id)) : [];

  return (
    <div className="agent-editor__section" data-testid="section-training-sets">
      <Form.Item name="training_set_ids" label={t("picker.label")} extra={t("picker.hint")} rules={[valueRule(ZAgentInput.shape.training_set_ids, ta)]}>
        <Select
          mode="multiple"
          allowClear
          loading={!sets}
          placeholder={t("picker.placeholder")}
          options={options}
          filterOption={(input, option) => (option?.name ?? "").toLowerCase().includes(input.toLowerCase())}
          notFoundContent={sets && sets.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("picker.none")} /> : undefined}
          data-testid="agent-training-sets"
        />
      </Form.Item>
      {chosen.length > 0 && sets && (
        <div data-testid="agent-training-sets-chosen">
          <div className="agent-editor__hint" style={{ marginBottom: 6 }}>
            {t("picker.chosen")}
          </div>
          <Space wrap size={[12, 6]}>
            {chosen.map((id) => {
              const s = byId.get(id);
              return s ? (
                <Space key={id} size={4} data-testid="chosen-training-set" data-state={s.state}>
                  <AppLink to={editPathOf(s)}>{s.name}</AppLink>
                  <TrainingStateTag state={s.state} progress={s.progress} compact />
                </Space>
              ) : null;
            })}
          </Space>
        </div>
      )}
      {warnings.map((s) => (
        <Alert
          key={s.id}
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          title={t("picker.warning", { name: s.name, state: t(`state.${s.state}`) })}
          data-testid="training-set-warning"
        />
      ))}
      {gone.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 12 }}
          title={t("validation.training_set_unknown", { ns: "errors" })}
          description={t("picker.deleted")}
          data-testid="training-set-gone"
        />
      )}
    </div>
  );
}
