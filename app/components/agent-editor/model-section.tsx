// Model: which model answers, its version, and its sampling parameters (advanced, folded away).
import { Col, Collapse, Form, Input, InputNumber, Row, Select, Switch } from "antd";
import { useTranslation } from "react-i18next";
import { ZAgentInput, ZAgentParameters } from "../../../server/agents/agents.schema";
import { OFFLINE_MODEL_KEY } from "../../../server/models/offline-model";
import { logitBiasRule, valueRule, type TEditorModel } from "./agent-rules";

const NUMBERS = [
  { name: "max_tokens", min: 1, max: 4096, step: 1 },
  { name: "temperature", min: 0, max: 2, step: 0.1 },
  { name: "top_p", min: 0, max: 1, step: 0.05 },
  { name: "top_k", min: 1, max: 6, step: 1 },
  { name: "presence_penalty", min: -2, max: 2, step: 0.1 },
  { name: "frequency_penalty", min: -2, max: 2, step: 0.1 },
  { name: "n", min: 1, max: 5, step: 1 },
] as const;

export function ModelSection({ models }: { models: TEditorModel[] }) {
  const { t } = useTranslation("agents");
  const { t: tm } = useTranslation("models");
  const modelKey = Form.useWatch("model_key") as string | undefined;
  const shape = ZAgentParameters.shape;
  const parameters = (
    <Row gutter={16}>
      {NUMBERS.map((n) => (
        <Col xs={12} md={6} key={n.name}>
          <Form.Item
            name={["parameters", n.name]}
            label={t(`parameters.${n.name}`)}
            tooltip={t(`parameters.${n.name}_hint`)}
            rules={[valueRule(shape[n.name], t)]}
          >
            <InputNumber
              style={{ width: "100%" }}
              step={n.step}
              placeholder={n.name === "top_k" ? t("parameters.unset") : undefined}
              data-testid={`param-${n.name}`}
            />
          </Form.Item>
        </Col>
      ))}
      <Col xs={12} md={6}>
        <Form.Item name={["parameters", "stream"]} label={t("parameters.stream")} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name={["parameters", "stop"]} label={t("parameters.stop")} tooltip={t("parameters.stop_hint")} rules={[valueRule(shape.stop, t)]}>
          <Select mode="tags" open={false} tokenSeparators={[","]} placeholder={t("parameters.stop_placeholder")} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name={["parameters", "logit_bias"]} label={t("parameters.logit_bias")} tooltip={t("parameters.logit_bias_hint")} rules={[logitBiasRule(t)]}>
          <Input.TextArea rows={1} autoSize={{ minRows: 1, maxRows: 4 }} placeholder='{"50256": -100}' data-testid="param-logit_bias" />
        </Form.Item>
      </Col>
    </Row>
  );
  return (
    <div className="agent-editor__section" data-testid="section-model">
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="model_key"
            label={t("fields.model")}
            rules={[valueRule(ZAgentInput.shape.model_key, t)]}
            // Said plainly: this "model" is retrieval from Q&A sets, not a language model.
            extra={modelKey === OFFLINE_MODEL_KEY ? <span data-testid="offline-model-hint">{tm("offline_hint")}</span> : undefined}
          >
            <Select
              showSearch
              optionFilterProp="label"
              placeholder={t("fields.model_placeholder")}
              notFoundContent={t("fields.model_none")}
              options={models.map((m) => ({ value: m.key, label: `${m.display_name} (${m.key})` }))}
              data-testid="agent-model"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="model_version"
            label={t("fields.model_version")}
            extra={t("fields.model_version_hint")}
            rules={[valueRule(ZAgentInput.shape.model_version, t)]}
          >
            <Input maxLength={50} data-testid="agent-model-version" />
          </Form.Item>
        </Col>
      </Row>
      <Collapse size="small" items={[{ key: "parameters", label: t("sections.parameters"), children: parameters, forceRender: true }]} />
    </div>
  );
}
