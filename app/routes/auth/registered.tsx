import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Alert, Button, Form, Input, Result } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { AgreementCheckbox } from "../../components/auth/agreement-checkbox";
import { useApiSubmit } from "../../components/auth/use-submit";
import { NewPasswordFields } from "../../components/auth/new-password-fields";
import { getSessionAccount, safeRedirect } from "../../lib/auth.server";
import { zodRule } from "../../lib/zod-rule";
import { ZAccountName, passwordSchema } from "../../../server/accounts/accounts.schema";
import { getEnv } from "../../../server/env";

export const handle = { i18n: ["auth"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getSessionAccount(request)) throw redirect("/setting");
  const env = getEnv();
  return { mode: env.REGISTRATION_MODE, strict: env.STRICT_PASSWORD, invite: url.searchParams.get("invite") ?? "", redirect: safeRedirect(url.searchParams.get("redirect")) };
}

export default function Register() {
  const { t } = useTranslation("auth");
  const data = useLoaderData<typeof loader>();
  const [form] = Form.useForm();
  const { submit, pending, error } = useApiSubmit("/api/v1/auth/register");
  if (data.mode === "closed") return <Result status="info" title={t("registration_closed", { ns: "errors" })} extra={<AppLink to="/login">{t("register.to_login")}</AppLink>} />;
  const onFinish = async (values: Record<string, unknown>) => {
    if (await submit(values)) window.location.assign(data.redirect);
  };
  const needsInvite = data.mode === "invitation";
  return (
    <>
      <h1 className="auth__title">{t("register.title")}</h1>
      <p className="auth__subtitle">{needsInvite ? t("register.subtitle_invite") : data.mode === "paid" ? t("register.subtitle_paid") : t("register.subtitle")}</p>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} initialValues={{ invitation_code: data.invite }} data-testid="register">
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="form-error" />}
        <Form.Item name="account" label={t("fields.account")} extra={t("register.account_hint")} rules={[zodRule(ZAccountName, t)]}>
          <Input autoComplete="username" data-testid="account" />
        </Form.Item>
        <NewPasswordFields schema={passwordSchema(data.strict)} label={t("fields.password")} extra={data.strict ? t("register.password_hint_strict") : t("register.password_hint")} />
        <Form.Item name="invitation_code" label={needsInvite ? t("fields.invitation_code") : t("fields.invitation_code_optional")} rules={needsInvite ? [{ required: true, message: t("validation.required", { ns: "errors" }) }] : []}>
          <Input data-testid="invitation-code" />
        </Form.Item>
        <AgreementCheckbox />
        <Button type="primary" htmlType="submit" block size="large" loading={pending} data-testid="submit">
          {t("register.submit")}
        </Button>
      </Form>
      <div className="auth__links">
        <span>
          {t("register.have_account")} <AppLink to="/login">{t("register.to_login")}</AppLink>
        </span>
      </div>
    </>
  );
}
