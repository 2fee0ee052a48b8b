// Prompt: role or style, the prompt itself with {{variable}} insertion, and the fixed replies.
import { Button, Form, Input, Space, Typography } from "antd";
import type { TextAreaRef } from "antd/es/input/TextArea";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { ZAgentInput } from "../../../server/agents/agents.schema";
import { valueRule } from "./agent-rules";
import type { TVariableFormValues } from "./agent-form-values";

/** The prompt text area with one button per variable that puts {{name}} where the cursor is. */
function PromptField({ value = "", onChange, names }: { value?: string; onChange?: (v: string) => void; names: string[] }) {
  const { t } = useTranslation("agents");
  const ref = useRef<TextAreaRef>(null);
  const insert = (name: string) => {
    const el = ref.current?.resizableTextArea?.textArea;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const token = `{{${name}}}`;
    onChange?.(value.slice(0, start) + token + value.slice(end));
    // Put the cursor after what was inserted once React has rendered the new text.
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  };
  return (
    <Space orientation="vertical" style={{ width: "100%" }} size={6}>
      <Space wrap size={6} data-testid="prompt-variables">
        <Typography.Text type="secondary">{t("fields.insert_variable")}</Typography.Text>
        {names.length === 0 ? (
          <Typography.Text type="secondary" italic>
            {t("fields.no_variables")}
          </Typography.Text>
        ) : (
          names.map((n) => <Button key={n} size="small" onClick={() => insert(n)} data-testid={`insert-variable-${n}`}>{`{{${n}}}`}</Button>)
        )}
      </Space>
      <Input.TextArea
        ref={ref}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        autoSize={{ minRows: 6, maxRows: 20 }}
        maxLength={20000}
        placeholder={t("fields.prompt_placeholder", { example: "{{name}}" })}
        data-testid="agent-prompt"
      />
    </Space>
  );
}

export function PromptSection() {
  const { t } = useTranslation("agents");
  const variables = (Form.useWatch("variables") as TVariableFormValues[] | undefined) ?? [];
  const names = [...new Set(variables.map((v) => v?.name?.trim()).filter((n): n is string => Boolean(n)))];
  const shape = ZAgentInput.shape;
  return (
    <div className="agent-editor__section" data-testid="section-prompt">
      <Form.Item name="role_style" label={t("fields.role_style")} rules={[valueRule(shape.role_style, t)]}>
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={2000}
          placeholder={t("fields.role_style_placeholder")}
          data-testid="agent-role-style"
        />
      </Form.Item>
      <Form.Item name="prompt" label={t("fields.prompt")} rules={[valueRule(shape.prompt, t)]}>
        <PromptField names={names} />
      </Form.Item>
      <Form.Item name="welcome_message" label={t("fields.welcome_message")} rules={[valueRule(shape.welcome_message, t)]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} data-testid="agent-welcome" />
      </Form.Item>
      <Form.Item
        name="out_of_scope_reply"
        label={t("fields.out_of_scope_reply")}
        extra={t("fields.out_of_scope_hint")}
        rules={[valueRule(shape.out_of_scope_reply, t)]}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} data-testid="agent-out-of-scope" />
      </Form.Item>
    </div>
  );
}
