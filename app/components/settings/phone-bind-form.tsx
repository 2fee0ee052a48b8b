// Binds a phone to the signed-in account, or replaces the bound one: a code to the new phone, and
// for a replacement the current password too (server/auth/phone-binding.service.ts).
import { Alert, Button, Form, Input, Space } from "antd";
import { useTranslation } from "react-i18next";
import { SmsCodeFields } from "../auth/sms-code-field";
import { useApiSubmit } from "../auth/use-submit";
import type { TSessionAccount } from "../../../server/accounts/accounts.schema";

export function PhoneBindForm({ replacing, onBound, onCancel }: { replacing: boolean; onBound: (account: TSessionAccount) => void; onCancel?: () => void }) {
  const { t } = useTranslation("auth");
  const [form] = Form.useForm();
  const { submit, pending, error } = useApiSubmit<TSessionAccount>("/api/v1/account/phone");
  const onFinish = async (values: Record<string, unknown>) => {
    const account = await submit(values);
    if (account) onBound(account);
  };
  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={onFinish} style={{ maxWidth: 420 }} data-testid="phone-bind-form">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="phone-bind-error" />}
      {replacing && <p className="console__hint">{t("phone_binding.change_hint")}</p>}
      <SmsCodeFields form={form} purpose="bind_phone" phoneLabel={replacing ? t("phone_binding.new_phone") : undefined} />
      {replacing && (
        <Form.Item name="password" label={t("fields.current_password")} rules={[{ required: true, message: t("validation.required", { ns: "errors" }) }]}>
          <Input.Password autoComplete="current-password" data-testid="phone-bind-password" />
        </Form.Item>
      )}
      <Space wrap>
        <Button type="primary" htmlType="submit" loading={pending} data-testid="phone-bind-submit">
          {replacing ? t("phone_binding.change") : t("phone_binding.bind")}
        </Button>
        {onCancel && <Button onClick={onCancel}>{t("phone_binding.cancel")}</Button>}
      </Space>
    </Form>
  );
}

/** 138****8000: enough to recognise one's own phone on a shared screen. */
export function maskPhone(phone: string) {
  return phone.length >= 11 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone;
}
