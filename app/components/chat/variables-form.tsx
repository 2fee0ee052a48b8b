// The agent's variables, filled before chatting: a text box or a choice, with the
// browser refusing what the runtime would (required, option, length range) with the same messages.
import { Form, Input, Select, type FormInstance } from "antd";
import type { Rule } from "antd/es/form";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { TVariable } from "../../../server/agents/agents.schema";

/** The same checks as the runtime's resolveVariables, as antd rules. */
export function buildVariableRules(v: TVariable, t: TFunction): Rule[] {
  const rules: Rule[] = [];
  if (v.required) rules.push({ required: true, whitespace: true, message: t("validation.variable_required", { ns: "errors" }) });
  if (v.type === "select")
    rules.push({
      validator: async (_r, value) => {
        if (value && !v.options.includes(value)) throw new Error(t("validation.variable_option", { ns: "errors" }));
      },
    });
  if (v.range)
    rules.push({
      validator: async (_r, value: string | undefined) => {
        const n = (value ?? "").trim().length;
        if (n && (n < v.range!.min || n > v.range!.max)) throw new Error(t("validation.variable_range", { ns: "errors" }));
      },
    });
  return rules;
}

export function initialVariableValues(variables: TVariable[], stored?: Record<string, string>) {
  return Object.fromEntries(variables.map((v) => [v.name, stored?.[v.name] ?? v.default ?? ""]));
}

export function VariablesForm({ variables, form, disabled }: { variables: TVariable[]; form: FormInstance; disabled?: boolean }) {
  const { t } = useTranslation("chat");
  return (
    <Form
      form={form}
      layout="vertical"
      className="chat-vars__form"
      initialValues={initialVariableValues(variables)}
      disabled={disabled}
      data-testid="variables-form"
      requiredMark
    >
      {variables.map((v) => (
        <Form.Item key={v.name} name={v.name} label={v.name} rules={buildVariableRules(v, t)} required={v.required} validateFirst>
          {v.type === "select" ? (
            <Select
              allowClear
              placeholder={v.prompt || t("variables.choose")}
              options={v.options.map((o) => ({ value: o, label: o }))}
              data-testid={`variable-${v.name}`}
            />
          ) : (
            <Input placeholder={v.prompt || t("variables.fill")} maxLength={v.range?.max} data-testid={`variable-${v.name}`} />
          )}
        </Form.Item>
      ))}
    </Form>
  );
}

/** The form as a strip under the header: open before the first message, a one-line summary after. */
export function VariablesPanel({
  variables,
  form,
  open,
  onToggle,
}: {
  variables: TVariable[];
  form: FormInstance;
  open: boolean;
  onToggle: (open: boolean) => void;
}) {
  const { t } = useTranslation("chat");
  const values = Form.useWatch((all: Record<string, string>) => all, form);
  const summary = variables
    .map((v) => values?.[v.name])
    .filter(Boolean)
    .join(" · ");
  return (
    <div className={`chat-vars${open ? " is-open" : ""}`} data-testid="variables">
      <button type="button" className="chat-vars__head" onClick={() => onToggle(!open)} aria-expanded={open} data-testid="variables-toggle">
        <span className="chat-vars__title">{t("variables.title", { count: variables.length })}</span>
        {!open && <span className="chat-vars__summary">{summary || t("variables.empty")}</span>}
        <span className="chat-vars__action">{open ? t("variables.collapse") : t("variables.edit")}</span>
      </button>
      {/* Kept mounted while closed so the values and their checks stay in the form. */}
      <div className="chat-vars__body" hidden={!open}>
        <VariablesForm variables={variables} form={form} />
      </div>
    </div>
  );
}
