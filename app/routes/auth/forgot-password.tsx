import { Alert, Button, Form, Result } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { SmsCodeFields } from "../../components/auth/sms-code-field";
import { useApiSubmit } from "../../components/auth/use-submit";
import { NewPasswordFields } from "../../components/auth/new-password-fields";
import { ZPassword } from "../../../server/accounts/accounts.schema";
import { useShell } from "../../components/shell/shell-context";

export const handle = { i18n: ["auth"] };

/** A code can only go to a bound phone: what an account without one can do instead. */
function NoPhoneHelp() {
  const { t } = useTranslation("auth");
  const { contactPhone } = useShell();
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginTop: 20 }}
      data-testid="forgot-no-phone"
      message={t("phone_binding.forgot_no_phone_title")}
      description={
        <>
          <p style={{ margin: "4px 0" }}>{t("phone_binding.forgot_no_phone_login")}</p>
          <p style={{ margin: 0 }}>{t("phone_binding.forgot_no_phone_contact", { phone: contactPhone })}</p>
        </>
      }
    />
  );
}

export default function ForgotPassword() {
  const { t } = useTranslation("auth");
  const [form] = Form.useForm();
  const [done, setDone] = useState(false);
  const { submit, pending, error } = useApiSubmit("/api/v1/auth/password/reset");
  if (done) {
    return (
      <Result
        status="success"
        title={t("forgot.done_title")}
        subTitle={t("forgot.done_body")}
        extra={
          <AppLink to="/login">
            <Button type="primary" data-testid="to-login">
              {t("register.to_login")}
            </Button>
          </AppLink>
        }
      />
    );
  }
  return (
    <>
      <h1 className="auth__title">{t("forgot.title")}</h1>
      <p className="auth__subtitle">{t("forgot.subtitle")}</p>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={async (v) => (await submit(v)) !== null && setDone(true)} data-testid="forgot">
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="form-error" />}
        <SmsCodeFields form={form} purpose="reset_password" />
        <NewPasswordFields schema={ZPassword} label={t("fields.new_password")} />
        <Button type="primary" htmlType="submit" block size="large" loading={pending} data-testid="submit">
          {t("forgot.submit")}
        </Button>
      </Form>
      <div className="auth__links">
        <AppLink to="/login">{t("register.to_login")}</AppLink>
      </div>
      <NoPhoneHelp />
    </>
  );
}
