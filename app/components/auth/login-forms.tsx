import { Alert, Button, Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { AgreementCheckbox } from "./agreement-checkbox";
import { SmsCodeFields } from "./sms-code-field";
import { useApiSubmit } from "./use-submit";

type TProps = { redirect: string; domain?: string };

function go(redirect: string) {
  // A full load, so every part of the page sees the new session.
  window.location.assign(redirect);
}

export function PasswordLoginForm({ redirect, domain }: TProps) {
  const { t } = useTranslation("auth");
  const [form] = Form.useForm();
  const { submit, pending, error } = useApiSubmit("/api/v1/auth/login");
  const onFinish = async (values: Record<string, unknown>) => {
    if (await submit({ ...values, domain })) go(redirect);
  };
  return (
    <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} data-testid="password-login">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="form-error" />}
      <Form.Item name="account" label={t("fields.account_or_phone")} rules={[{ required: true, message: t("validation.required", { ns: "errors" }) }]}>
        <Input autoComplete="username" data-testid="account" />
      </Form.Item>
      <Form.Item name="password" label={t("fields.password")} rules={[{ required: true, message: t("validation.required", { ns: "errors" }) }]}>
        <Input.Password autoComplete="current-password" data-testid="password" />
      </Form.Item>
      <AgreementCheckbox />
      <Button type="primary" htmlType="submit" block size="large" loading={pending} data-testid="submit">
        {t("login.submit")}
      </Button>
    </Form>
  );
}

export function SmsLoginForm({ redirect, domain }: TProps) {
  const { t } = useTranslation("auth");
  const [form] = Form.useForm();
  const { submit, pending, error } = useApiSubmit("/api/v1/auth/login/sms");
  const onFinish = async (values: Record<string, unknown>) => {
    if (await submit({ ...values, domain })) go(redirect);
  };
  return (
    <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} data-testid="sms-login">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="form-error" />}
      <SmsCodeFields form={form} purpose="login" />
      <AgreementCheckbox />
      <Button type="primary" htmlType="submit" block size="large" loading={pending} data-testid="submit">
        {t("login.submit")}
      </Button>
    </Form>
  );
}
