import { useSearchParams } from "@remix-run/react";
import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { LanguageSwitcher } from "../../components/shell/preference-switchers";

export const handle = { i18n: ["errors", "mobi"] };

/** The phone's error page: /mobi/error?code=<catalogue code> shows that refusal in the user's language. */
export default function MobiError() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = params.get("code") ?? "";
  const known = /^[a-z_]+$/.test(code) && t(code, { ns: "errors", defaultValue: "" }) !== "";
  return (
    <main className="phone error-screen" data-testid="mobi-error">
      <div className="error-screen__tools">
        <LanguageSwitcher compact />
      </div>
      <Result
        status="warning"
        title={known ? t(code, { ns: "errors" }) : t("shell.errors.failed_title")}
        subTitle={known ? undefined : t("shell.errors.failed_body")}
        extra={
          <AppLink to="/">
            <Button type="primary" block>{t("shell.errors.back_home")}</Button>
          </AppLink>
        }
      />
    </main>
  );
}
