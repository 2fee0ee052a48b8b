import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Alert, Button, Form, Input, Radio, Result } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { RegistrationPayment, resumeRegistrationOrder, type TRegistrationOrder } from "../../components/editions/registration-payment";
import { getRegistrationTerms } from "../../../server/auth/paid-registration.service";
import { AppLink } from "../../components/app-link";
import { AgreementCheckbox } from "../../components/auth/agreement-checkbox";
import { useApiSubmit } from "../../components/auth/use-submit";
import { NewPasswordFields } from "../../components/auth/new-password-fields";
import { getSessionAccount, landingPath, safeRedirect } from "../../lib/auth.server";
import { zodRule } from "../../lib/zod-rule";
import { ZAccountName, passwordSchema } from "../../../server/accounts/accounts.schema";
import { getEnv } from "../../../server/env";

export const handle = { i18n: ["auth", "editions"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getSessionAccount(request)) throw redirect(landingPath(request));
  const env = getEnv();
  // Paid registration: the fee and the providers that can take it.
  const terms = await getRegistrationTerms();
  return {
    mode: env.REGISTRATION_MODE,
    fee: terms.fee,
    providers: terms.providers as string[],
    strict: env.STRICT_PASSWORD,
    invite: url.searchParams.get("invite") ?? "",
    redirect: safeRedirect(url.searchParams.get("redirect"), landingPath(request)),
  };
}

export default function Register() {
  const { t } = useTranslation("auth");
  const data = useLoaderData<typeof loader>();
  const [form] = Form.useForm();
  const { submit, pending, error } = useApiSubmit("/api/v1/auth/register");
  const order = useApiSubmit<TRegistrationOrder>("/api/v1/auth/register/order");
  const [made, setMade] = useState<TRegistrationOrder | null>(null);
  // Back from the sandbox's cashier: the order this tab made goes on to sign in.
  useEffect(() => {
    const back = resumeRegistrationOrder();
    if (back) setMade(back);
  }, []);
  if (data.mode === "closed")
    return <Result status="info" title={t("registration_closed", { ns: "errors" })} extra={<AppLink to="/login">{t("register.to_login")}</AppLink>} />;
  const paid = data.mode === "paid";
  const onFinish = async (values: Record<string, unknown>) => {
    // Paid mode without an invitation code: the form makes a payment order; the payment registers.
    if (paid && !values.invitation_code) {
      const r = await order.submit(values);
      if (r) setMade(r);
      return;
    }
    if (await submit(values)) window.location.assign(data.redirect);
  };
  const needsInvite = data.mode === "invitation";
  if (made) {
    return (
      <>
        <h1 className="auth__title">{t("register.title")}</h1>
        <RegistrationPayment made={made} onBack={() => setMade(null)} onSignedIn={() => window.location.assign(data.redirect)} />
      </>
    );
  }
  return (
    <>
      <h1 className="auth__title">{t("register.title")}</h1>
      <p className="auth__subtitle">
        {needsInvite ? t("register.subtitle_invite") : data.mode === "paid" ? t("register.subtitle_paid") : t("register.subtitle")}
      </p>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} initialValues={{ invitation_code: data.invite }} data-testid="register">
        {(error ?? order.error) && <Alert type="error" showIcon message={error ?? order.error} style={{ marginBottom: 16 }} data-testid="form-error" />}
        {paid && (
          <Alert
            type="info"
            showIcon
            message={t("registration.fee", { ns: "editions", fee: (data.fee / 1_000_000).toFixed(2) })}
            style={{ marginBottom: 16 }}
            data-testid="registration-fee"
          />
        )}
        <Form.Item name="account" label={t("fields.account")} extra={t("register.account_hint")} rules={[zodRule(ZAccountName, t)]}>
          <Input autoComplete="username" data-testid="account" />
        </Form.Item>
        <NewPasswordFields
          schema={passwordSchema(data.strict)}
          label={t("fields.password")}
          extra={data.strict ? t("register.password_hint_strict") : t("register.password_hint")}
        />
        <Form.Item
          name="invitation_code"
          label={needsInvite ? t("fields.invitation_code") : t("fields.invitation_code_optional")}
          rules={needsInvite ? [{ required: true, message: t("validation.required", { ns: "errors" }) }] : []}
        >
          <Input data-testid="invitation-code" />
        </Form.Item>
        {paid && data.providers.length > 0 && (
          <Form.Item name="provider" label={t("registration.provider", { ns: "editions" })} initialValue={data.providers[0]}>
            <Radio.Group data-testid="registration-provider">
              {data.providers.map((p) => (
                <Radio key={p} value={p} data-testid={`registration-provider-${p}`}>
                  {t(`providers.${p}`, { ns: "editions" })}
                </Radio>
              ))}
            </Radio.Group>
          </Form.Item>
        )}
        {paid && data.providers.length === 0 && (
          <Alert type="warning" showIcon message={t("registration.no_provider", { ns: "editions" })} style={{ marginBottom: 16 }} />
        )}
        <AgreementCheckbox />
        <Button type="primary" htmlType="submit" block size="large" loading={pending || order.pending} data-testid="submit">
          {paid ? t("registration.submit", { ns: "editions" }) : t("register.submit")}
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
