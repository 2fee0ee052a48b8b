import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Alert, Button, Tabs, Typography } from "antd";
import { WechatOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { isWechatLoginEnabled } from "../../../server/auth/wechat/wechat.service";
import { AppLink } from "../../components/app-link";
import { PasswordLoginForm, SmsLoginForm } from "../../components/auth/login-forms";
import { SetupNotice } from "../../components/auth/setup-notice";
import { useFlag } from "../../components/shell/shell-context";
import { getSessionAccount, landingPath, safeRedirect } from "../../lib/auth.server";
import { isDevSmsActive } from "../../../server/auth/sms/dev-sms-provider";

export const handle = { i18n: ["auth"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // An explicit redirect wins; otherwise signing in lands on the workspace.
  const target = safeRedirect(url.searchParams.get("redirect"), landingPath(request));
  if (await getSessionAccount(request)) throw redirect(target);
  return {
    redirect: target,
    wechatEnabled: isWechatLoginEnabled(),
    devSms: isDevSmsActive(),
    wechatError: url.searchParams.get("wechat_error"),
  };
}

export default function Login() {
  const { t } = useTranslation("auth");
  const data = useLoaderData<typeof loader>();
  const smsOn = useFlag("sms_login");
  const wechatOn = useFlag("wechat_login") && data.wechatEnabled;
  const wechatHref = `/api/v1/auth/wechat/start?purpose=login&go=1&redirect=${encodeURIComponent(data.redirect)}`;
  const items = [
    { key: "password", label: t("login.tab_password"), children: <PasswordLoginForm redirect={data.redirect} /> },
    ...(smsOn ? [{ key: "sms", label: t("login.tab_sms"), children: <SmsLoginForm redirect={data.redirect} /> }] : []),
    ...(wechatOn
      ? [
          {
            key: "wechat",
            label: t("login.tab_wechat"),
            children: (
              <div className="auth__wechat">
                <WechatOutlined className="auth__wechat-icon" />
                <Typography.Paragraph type="secondary">{t("login.wechat_hint")}</Typography.Paragraph>
                <Button type="primary" size="large" block href={wechatHref} data-testid="wechat-login">
                  {t("login.wechat_button")}
                </Button>
              </div>
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <h1 className="auth__title">{t("login.title")}</h1>
      <p className="auth__subtitle">{t("login.subtitle")}</p>
      <SetupNotice />
      {data.wechatError && (
        <Alert
          type="error"
          showIcon
          message={t(data.wechatError, { ns: "errors", defaultValue: t("wechat_login_failed", { ns: "errors" }) })}
          style={{ marginBottom: 16 }}
        />
      )}
      <Tabs items={items} defaultActiveKey="password" />
      <div className="auth__links">
        <AppLink to="/forgot_password">{t("login.forgot")}</AppLink>
        <span>
          {t("login.no_account")} <AppLink to="/registered">{t("login.register")}</AppLink>
        </span>
      </div>
      {data.devSms && <p className="auth__dev">{t("login.dev_sms")}</p>}
    </>
  );
}
