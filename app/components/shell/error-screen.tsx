import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import { LanguageSwitcher } from "./preference-switchers";

/** The page-level face of a refusal: 404, no access, or an unexpected failure. */
export function ErrorScreen({ status, titleKey, bodyKey }: { status: number; titleKey?: string; bodyKey?: string }) {
  const { t } = useTranslation();
  const kind = status === 404 ? "not_found" : status === 403 ? "no_access" : "failed";
  return (
    <main className="error-screen" data-testid={`error-${kind}`}>
      <div className="error-screen__tools">
        <LanguageSwitcher compact />
      </div>
      <Result
        status={status === 404 ? "404" : status === 403 ? "403" : "500"}
        title={t(titleKey ?? `shell.errors.${kind}_title`)}
        subTitle={t(bodyKey ?? `shell.errors.${kind}_body`)}
        extra={
          <AppLink to="/">
            <Button type="primary">{t("shell.errors.back_home")}</Button>
          </AppLink>
        }
      />
    </main>
  );
}
