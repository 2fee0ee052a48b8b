// Abilities: plugins (at most 3, only on models that call tools), networking, output, context,
// document reading and whether the model's reasoning is shown.
import { Alert, Checkbox, Col, Form, InputNumber, Row, Select, Switch } from "antd";
import { useTranslation } from "react-i18next";
import { MAX_PLUGINS, ZAgentInput } from "../../../server/agents/agents.schema";
import { valueRule, type TEditorModel } from "./agent-rules";

export function AbilitiesSection({ models, plugins }: { models: TEditorModel[]; plugins: string[] }) {
  const { t } = useTranslation("agents");
  const modelKey = Form.useWatch("model_key") as string | undefined;
  const model = models.find((m) => m.key === modelKey);
  const noTools = Boolean(model && !model.supports_tools);
  const shape = ZAgentInput.shape;
  return (
    <div className="agent-editor__section" data-testid="section-abilities">
      {noTools && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t("model_no_plugins", { ns: "errors" })} data-testid="no-plugins-hint" />}
      <Form.Item name="plugins" label={t("fields.plugins")} extra={t("fields.plugins_hint", { max: MAX_PLUGINS })} rules={[valueRule(shape.plugins, t)]}>
        <Checkbox.Group disabled={noTools} className="agent-editor__plugins" data-testid="agent-plugins">
          {plugins.map((p) => (
            <Checkbox key={p} value={p} data-testid={`plugin-${p}`}>
              <strong>{t(`plugins.${p}`)}</strong>
              <span className="agent-editor__hint"> — {t(`plugins.${p}_hint`)}</span>
            </Checkbox>
          ))}
        </Checkbox.Group>
      </Form.Item>
      <Row gutter={16}>
        <Col xs={12} md={6}>
          <Form.Item name="networking" label={t("fields.networking")} tooltip={t("fields.networking_hint")} valuePropName="checked">
            <Switch disabled={noTools} data-testid="agent-networking" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="document_reading" label={t("fields.document_reading")} tooltip={t("fields.document_reading_hint")} valuePropName="checked">
            <Switch data-testid="agent-document-reading" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="show_reasoning" label={t("fields.show_reasoning")} tooltip={t("fields.show_reasoning_hint")} valuePropName="checked">
            <Switch data-testid="agent-show-reasoning" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="keep_context" label={t("fields.keep_context")} tooltip={t("fields.keep_context_hint")} rules={[valueRule(shape.keep_context, t)]}>
            <InputNumber min={0} max={50} precision={0} style={{ width: "100%" }} data-testid="agent-keep-context" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="output_format" label={t("fields.output_format")}>
            <Select
              options={(["markdown", "text", "json"] as const).map((f) => ({ value: f, label: t(`output_format.${f}`) }))}
              data-testid="agent-output-format"
            />
          </Form.Item>
        </Col>
      </Row>
    </div>
  );
}
