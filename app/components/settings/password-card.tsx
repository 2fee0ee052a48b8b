import { App, Button, Card, Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { NewPasswordFields } from "../auth/new-password-fields";
import { passwordSchema } from "../../../server/accounts/accounts.schema";

/** Changing the password signs out every other device. */
export function PasswordCard({ strict }: { strict: boolean }) {
  const { t } = useTranslation("auth");
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const { run: onFinish } = useMutation(async (values: Record<string, unknown>) => {
    await apiRequest("/api/v1/auth/password/change", { body: values });
    message.success(t("settings.password_changed"));
    form.resetFields();
  });
  return (
    <Card title={t("settings.password")} data-testid="password-card">
      <p className="console__hint">{t("settings.password_hint")}</p>
      <Form form={form} layout="vertical" onFinish={onFinish} style={{ maxWidth: 420 }}>
        <Form.Item name="current" label={t("fields.current_password")} rules={[{ required: true, message: t("validation.required", { ns: "errors" }) }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <NewPasswordFields schema={passwordSchema(strict)} label={t("fields.new_password")} />
        <Button htmlType="submit">{t("settings.change_password")}</Button>
      </Form>
    </Card>
  );
}
