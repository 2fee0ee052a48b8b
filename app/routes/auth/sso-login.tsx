import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Result, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { PasswordLoginForm, SmsLoginForm } from "../../components/auth/login-forms";
import { safeRedirect } from "../../lib/auth.server";
import { findEnterpriseForLogin } from "../../../server/accounts/enterprises.service";

export const handle = { i18n: ["auth"] };

/** /sso_login?domain=acme: login to one enterprise, under its logo. */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const domain = url.searchParams.get("domain") ?? "";
  const enterprise = domain ? await findEnterpriseForLogin(domain) : null;
  const shown = enterprise
    ? { name: enterprise.name, domain: enterprise.domain, logoUrl: enterprise.logoUrl, loginBackgroundUrl: enterprise.loginBackgroundUrl }
    : null;
  return data({ enterprise: shown, domain, redirect: safeRedirect(url.searchParams.get("redirect")) }, { status: enterprise ? 200 : 404 });
}

export default function SsoLogin() {
  const { t } = useTranslation("auth");
  const { enterprise, redirect } = useLoaderData<typeof loader>();
  if (!enterprise) return <Result status="404" title={t("enterprise_not_found", { ns: "errors" })} data-testid="sso-unknown" />;
  return (
    <div data-testid="sso-login">
      {enterprise.logoUrl && <img className="auth__enterprise-logo" src={enterprise.logoUrl} alt="" />}
      <h1 className="auth__title">{t("sso.title", { name: enterprise.name })}</h1>
      <p className="auth__subtitle">{t("sso.subtitle")}</p>
      <Tabs
        items={[
          { key: "password", label: t("login.tab_password"), children: <PasswordLoginForm redirect={redirect} domain={enterprise.domain} /> },
          { key: "sms", label: t("login.tab_sms"), children: <SmsLoginForm redirect={redirect} domain={enterprise.domain} /> },
        ]}
      />
    </div>
  );
}
