import { Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import type { ZodType } from "zod";
import { zodRule } from "../../lib/zod-rule";

/** A new password and its confirmation, checked by the schema the server uses. */
export function NewPasswordFields({ schema, label, extra }: { schema: ZodType; label: string; extra?: string }) {
  const { t } = useTranslation("auth");
  return (
    <>
      <Form.Item name="password" label={label} extra={extra} rules={[zodRule(schema, t)]}>
        <Input.Password autoComplete="new-password" data-testid="password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t("fields.confirm")}
        dependencies={["password"]}
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_r, v) =>
              v === getFieldValue("password") ? undefined : Promise.reject(new Error(t("validation.password_confirm", { ns: "errors" }))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="confirm" />
      </Form.Item>
    </>
  );
}
