// Create or edit a catalogue model (platform administrators), validated as you type with the
// server's schema. Prices are typed in yuan and sent as micro-Z: per 1000 tokens for language
// models, per unit of output for image, video and voice models (which have no token prices).
import { App, Button, Checkbox, Drawer, Form, Input, InputNumber, Select, Space } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { fieldErrorsOf } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { useIsMobi } from "../app-link";
import { isUnitPricedKind, MODEL_KINDS } from "../../../server/models/model-kinds";
import { ZCreateModelInput, ZModelDisplayName, ZModelKey } from "../../../server/models/models.schema";
import { formatYuan, toMicro } from "./model-format";
import { LIPSYNC_PRICE_MICRO_PER_5S } from "../../../server/digital/digital.schema";
import { formatZ } from "../../../server/money/money-format";
import type { TCatalogueModel } from "./model-catalogue";
import { modelsApi } from "./models-api";
import { optionalRule, requiredRule, yuanRule } from "./form-rules";

const shape = ZCreateModelInput.shape;
const DEFAULTS = {
  kind: "text",
  context_window: 8192,
  input_price: 0,
  output_price: 0,
  unit_price: 0,
  supports_tools: false,
  supports_reasoning: false,
  enabled: true,
};

export function ModelFormDrawer({ editing, onClose, onSaved }: { editing: TCatalogueModel | "new" | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation("models");
  const { message } = App.useApp();
  const mobi = useIsMobi();
  const [form] = Form.useForm();
  const existing = editing && editing !== "new" ? editing : null;
  const kind: string = Form.useWatch("kind", form) ?? existing?.kind ?? "text";
  const unitPriced = isUnitPricedKind(kind);

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    if (existing) {
      form.setFieldsValue({
        ...existing,
        input_price: Number(formatYuan(existing.input_price_micro)),
        output_price: Number(formatYuan(existing.output_price_micro)),
        unit_price: Number(formatYuan(existing.unit_price_micro)),
      });
    }
  }, [editing, existing, form]);

  const { run: save, busy: saving } = useMutation(
    async ({ input_price, output_price, unit_price, key, upstream_model, ...rest }: Record<string, unknown>) => {
      // Only the fields shown for the kind are sent: hidden ones keep their stored values.
      const body = {
        ...rest,
        upstream_model: upstream_model || undefined,
        input_price_micro: toMicro(input_price as number),
        output_price_micro: toMicro(output_price as number),
        unit_price_micro: toMicro(unit_price as number),
      };
      if (existing) await modelsApi.update(existing.id, body);
      else await modelsApi.create({ ...body, key });
      message.success(t("catalogue.saved"));
      onSaved();
    },
    {
      onError: (err) => {
        const fields = fieldErrorsOf(err);
        if (fields.length) form.setFields(fields.map((f) => ({ name: f.path.replace(/_micro$/, "").split(".")[0], errors: [f.message] })));
      },
    },
  );

  return (
    <Drawer
      open={Boolean(editing)}
      onClose={onClose}
      title={existing ? t("catalogue.edit_title", { name: existing.display_name }) : t("catalogue.add_title")}
      width={mobi ? "100%" : 480}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t("actions.cancel")}</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="model-save">
            {t("actions.save")}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" onFinish={save} initialValues={DEFAULTS} data-testid="model-form">
        <Form.Item name="key" label={t("fields.key")} rules={existing ? [] : [requiredRule(ZModelKey, t)]} extra={t("catalogue.key_hint")}>
          <Input disabled={Boolean(existing)} placeholder="deepseek-chat" data-testid="model-key" />
        </Form.Item>
        <Form.Item name="display_name" label={t("fields.display_name")} rules={[requiredRule(ZModelDisplayName, t)]} tooltip={t("catalogue.display_name_hint")}>
          <Input data-testid="model-display-name" />
        </Form.Item>
        <Form.Item
          name="kind"
          label={t("fields.kind")}
          extra={kind === "lipsync" ? t("catalogue.lipsync_price_hint", { amount: formatZ(LIPSYNC_PRICE_MICRO_PER_5S) }) : undefined}
        >
          <Select options={MODEL_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))} data-testid="model-kind" />
        </Form.Item>
        <Form.Item name="upstream_model" label={t("fields.upstream_model")} rules={[optionalRule(ZModelKey, t)]} extra={t("catalogue.upstream_hint")}>
          <Input data-testid="model-upstream" />
        </Form.Item>
        {unitPriced ? (
          <Form.Item
            name="unit_price"
            label={t("fields.unit_price")}
            rules={[yuanRule(shape.unit_price_micro, t)]}
            extra={t(`catalogue.unit_price_hint.${kind}`)}
          >
            <InputNumber min={0} step={0.01} style={{ width: 180 }} suffix={t(`catalogue.unit_suffix.${kind}`)} data-testid="model-unit-price" />
          </Form.Item>
        ) : (
          <>
            <Form.Item name="context_window" label={t("fields.context_window")} rules={[requiredRule(shape.context_window, t)]}>
              <InputNumber precision={0} style={{ width: "100%" }} suffix={t("catalogue.tokens")} data-testid="model-context-window" />
            </Form.Item>
            <Space size={16} align="start" wrap>
              <Form.Item name="input_price" label={t("fields.input_price")} rules={[yuanRule(shape.input_price_micro, t)]} extra={t("catalogue.price_unit")}>
                <InputNumber min={0} step={0.001} style={{ width: 180 }} data-testid="model-input-price" />
              </Form.Item>
              <Form.Item name="output_price" label={t("fields.output_price")} rules={[yuanRule(shape.output_price_micro, t)]} extra={t("catalogue.price_unit")}>
                <InputNumber min={0} step={0.001} style={{ width: 180 }} data-testid="model-output-price" />
              </Form.Item>
            </Space>
          </>
        )}
        <Form.Item name="supports_tools" valuePropName="checked" noStyle>
          <Checkbox data-testid="model-supports-tools">{t("fields.supports_tools")}</Checkbox>
        </Form.Item>
        <Form.Item name="supports_reasoning" valuePropName="checked" noStyle>
          <Checkbox data-testid="model-supports-reasoning">{t("fields.supports_reasoning")}</Checkbox>
        </Form.Item>
        <Form.Item name="enabled" valuePropName="checked" style={{ marginTop: 12 }}>
          <Checkbox data-testid="model-enabled-field">{t("fields.enabled")}</Checkbox>
        </Form.Item>
      </Form>
    </Drawer>
  );
}
