// Variables: what the user fills in before chatting, one row per variable.
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Card, Col, Empty, Form, Input, InputNumber, Radio, Row, Select, Switch, type FormListFieldData } from "antd";
import { useTranslation } from "react-i18next";
import { ZVariable } from "../../../server/agents/agents.schema";
import { valueRule } from "./agent-rules";
import type { TVariableFormValues } from "./agent-form-values";

const NEW_VARIABLE: TVariableFormValues = {
  name: "",
  prompt: "",
  required: false,
  type: "fill",
  options: [],
  default: "",
  range: { min: null, max: null },
  associated: [],
};

function VariableRow({ field, index, onRemove }: { field: FormListFieldData; index: number; onRemove: () => void }) {
  const { t } = useTranslation("agents");
  const form = Form.useFormInstance();
  const all = (Form.useWatch("variables", form) as TVariableFormValues[] | undefined) ?? [];
  const self = all[index];
  const shape = ZVariable.shape;
  const others = all.map((v, i) => (i === index ? null : v?.name?.trim())).filter((n): n is string => Boolean(n));
  const optionsRule = {
    validator: async (_: unknown, value: string[] | undefined) => {
      if (form.getFieldValue(["variables", field.name, "type"]) === "select" && !value?.length)
        throw new Error(t("validation.select_needs_options", { ns: "errors" }));
    },
  };
  const uniqueRule = {
    validator: async (_: unknown, value: string | undefined) => {
      const names = ((form.getFieldValue("variables") as TVariableFormValues[] | undefined) ?? []).map((v) => v?.name?.trim());
      if (value?.trim() && names.findIndex((n) => n === value.trim()) < index) throw new Error(t("validation.variable_duplicate", { ns: "errors" }));
    },
  };
  // A minimum alone has nothing to stop at; a maximum below the minimum can never be met.
  const maxRule = {
    validator: async (_: unknown, max: number | null | undefined) => {
      const min = form.getFieldValue(["variables", field.name, "range", "min"]) as number | null | undefined;
      if (min != null && max == null) throw new Error(t("validation.required", { ns: "errors" }));
      if (min != null && max != null && min > max) throw new Error(t("validation.range_order", { ns: "errors" }));
    },
  };
  return (
    <Card
      size="small"
      className="agent-editor__variable"
      data-testid="variable-row"
      title={t("variables.title", { index: index + 1 })}
      extra={<Button type="text" danger icon={<DeleteOutlined />} onClick={onRemove} aria-label={t("variables.remove")} data-testid="variable-remove" />}
    >
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item name={[field.name, "name"]} label={t("variables.name")} rules={[valueRule(shape.name, t), uniqueRule]}>
            <Input maxLength={20} data-testid="variable-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={10}>
          <Form.Item name={[field.name, "prompt"]} label={t("variables.prompt")} rules={[valueRule(shape.prompt, t)]}>
            <Input maxLength={100} placeholder={t("variables.prompt_placeholder")} data-testid="variable-prompt" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={[field.name, "required"]} label={t("variables.required")} valuePropName="checked">
            <Switch data-testid="variable-required" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[field.name, "type"]} label={t("variables.type")}>
            <Radio.Group
              optionType="button"
              options={[
                { value: "fill", label: t("variables.fill") },
                { value: "select", label: t("variables.select") },
              ]}
              data-testid="variable-type"
            />
          </Form.Item>
        </Col>
        {self?.type === "select" && (
          <Col xs={24} md={16}>
            <Form.Item name={[field.name, "options"]} label={t("variables.options")} rules={[optionsRule]} dependencies={[["variables", field.name, "type"]]}>
              <Select mode="tags" open={false} tokenSeparators={[",", "，"]} placeholder={t("variables.options_placeholder")} data-testid="variable-options" />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} md={8}>
          <Form.Item name={[field.name, "default"]} label={t("variables.default")} rules={[valueRule(shape.default, t)]}>
            {self?.type === "select" ? (
              <Select allowClear options={(self.options ?? []).map((o) => ({ value: o, label: o }))} />
            ) : (
              <Input maxLength={500} data-testid="variable-default" />
            )}
          </Form.Item>
        </Col>
        <Col xs={12} md={4}>
          <Form.Item name={[field.name, "range", "min"]} label={t("variables.range_min")} tooltip={t("variables.range_hint")}>
            <InputNumber min={0} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col xs={12} md={4}>
          <Form.Item
            name={[field.name, "range", "max"]}
            label={t("variables.range_max")}
            rules={[maxRule]}
            dependencies={[["variables", field.name, "range", "min"]]}
          >
            <InputNumber min={1} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[field.name, "associated"]} label={t("variables.associated")} tooltip={t("variables.associated_hint")}>
            <Select mode="multiple" options={others.map((n) => ({ value: n, label: n }))} notFoundContent={t("variables.associated_none")} />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}

export function VariablesSection() {
  const { t } = useTranslation("agents");
  return (
    <div className="agent-editor__section" data-testid="section-variables">
      <Form.List name="variables">
        {(fields, { add, remove }) => (
          <div className="agent-editor__variables">
            {fields.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("variables.empty")} />}
            {fields.map((field, index) => (
              <VariableRow key={field.key} field={field} index={index} onRemove={() => remove(field.name)} />
            ))}
            <Button
              type="dashed"
              block
              icon={<PlusOutlined />}
              disabled={fields.length >= 20}
              onClick={() => add({ ...NEW_VARIABLE })}
              data-testid="variable-add"
            >
              {t("variables.add")}
            </Button>
          </div>
        )}
      </Form.List>
    </div>
  );
}
