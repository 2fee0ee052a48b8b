// Login, registration and password pages: the brand on one side, the form on the other; on a phone,
// the form alone under a slim header.
import { CheckCircleFilled } from "@ant-design/icons";
import { Outlet } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AppLink, useIsMobi } from "../app-link";
import { LanguageSwitcher } from "../shell/preference-switchers";
import { BrandLogo } from "../ui/brand-logo";
import { AntdShell } from "../shell/antd-shell";

/** antd's theme and App context for this layout's pages (not the root's: see antd-shell.tsx). */
export default function AuthLayout() {
  return (
    <AntdShell>
      <AuthLayoutFrame />
    </AntdShell>
  );
}

function AuthLayoutFrame() {
  const { t } = useTranslation("auth");
  const mobi = useIsMobi();
  return (
    <div className={`auth${mobi ? " auth--phone" : ""}`}>
      {!mobi && (
        <aside className="auth__brand">
          <AppLink to="/" aria-label={t("brand.name", { ns: "common" })}>
            <BrandLogo light size={36} />
          </AppLink>
          <div className="auth__pitch">
            <h2>{t("pitch.title")}</h2>
            <ul>
              {(["build", "publish", "earn"] as const).map((k) => (
                <li key={k}>
                  <CheckCircleFilled /> {t(`pitch.${k}`)}
                </li>
              ))}
            </ul>
          </div>
          <p className="auth__foot">{t("footer.copyright", { ns: "common", year: 2026 })}</p>
        </aside>
      )}
      <main className="auth__main">
        <div className="auth__top">
          {mobi && (
            <AppLink to="/">
              <BrandLogo size={28} />
            </AppLink>
          )}
          <LanguageSwitcher compact />
        </div>
        <div className="auth__card">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
