// The public site's frame: header, footer, and the phone variant for /mobi pages.
import { MenuOutlined, UserOutlined } from "@ant-design/icons";
import { Outlet, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { TRootData } from "../../root";
import { Button, Drawer } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink, useIsMobi } from "../app-link";
import { LanguageSwitcher, UiSizeSwitcher } from "../shell/preference-switchers";
import { useFlag, useShell } from "../shell/shell-context";
import { BrandLogo } from "../ui/brand-logo";
import { AntdShell } from "../shell/antd-shell";

const NAV = [
  { to: "/", key: "nav.home" },
  { to: "/case", key: "nav.case" },
  { to: "/scheme", key: "nav.scheme" },
  { to: "/partner", key: "nav.partner" },
] as const;

function isActive(pathname: string, to: string) {
  const plain = pathname.replace(/^\/mobi(?=\/|$)/, "") || "/";
  return to === "/" ? plain === "/" : plain.startsWith(to);
}

/** antd's theme and App context for this layout's pages (not the root's: see antd-shell.tsx). */
export default function SiteLayout() {
  return (
    <AntdShell>
      <SiteLayoutFrame />
    </AntdShell>
  );
}

function SiteLayoutFrame() {
  const mobi = useIsMobi();
  return mobi ? <PhoneFrame /> : <DesktopFrame />;
}

function DesktopFrame() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  return (
    <div className="site">
      <header className="site-header">
        <div className="site-header__inner">
          <AppLink to="/" className="site-header__brand" aria-label={t("brand.name")}>
            <BrandLogo />
          </AppLink>
          <nav className="site-nav" aria-label={t("nav.label")}>
            {NAV.map((n) => (
              <AppLink key={n.to} to={n.to} className={`site-nav__link${isActive(pathname, n.to) ? " is-active" : ""}`}>
                {t(n.key)}
              </AppLink>
            ))}
          </nav>
          <div className="site-header__tools">
            <UiSizeSwitcher />
            <LanguageSwitcher />
            <ViewerButtons />
            <Button type="text" className="site-header__menu" aria-label={t("nav.menu")} icon={<MenuOutlined />} onClick={() => setOpen(true)} />
          </div>
        </div>
      </header>
      {/* Narrow desktop windows lose the nav bar: the same links live in this drawer. */}
      <Drawer open={open} onClose={() => setOpen(false)} placement="right" size={320} title={t("nav.menu")}>
        <NavList pathname={pathname} onNavigate={() => setOpen(false)} />
        <div className="phone-nav__size">
          <UiSizeSwitcher />
        </div>
      </Drawer>
      <main className="site-main">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}

function PhoneFrame() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  return (
    <div className="phone">
      <header className="phone-header">
        <AppLink to="/" aria-label={t("brand.name")}>
          <BrandLogo size={28} />
        </AppLink>
        <div className="phone-header__tools">
          <LanguageSwitcher compact />
          <Button type="text" aria-label={t("nav.menu")} data-testid="phone-menu" icon={<MenuOutlined />} onClick={() => setOpen(true)} />
        </div>
      </header>
      <Drawer open={open} onClose={() => setOpen(false)} placement="right" size="78%" title={t("nav.menu")}>
        <NavList pathname={pathname} onNavigate={() => setOpen(false)} withIntro />
        <div className="phone-nav__size">
          <UiSizeSwitcher />
        </div>
      </Drawer>
      <main className="phone-main">
        <Outlet />
      </main>
      <SiteFooter compact />
    </div>
  );
}

/** Signed out: log in and start building; signed in: straight to the console. */
function ViewerButtons() {
  const { t } = useTranslation();
  const viewer = useRouteLoaderData<TRootData>("root")?.viewer;
  if (viewer) {
    return (
      <AppLink to="/setting" className="site-header__cta" data-testid="viewer">
        <Button type="primary" icon={<UserOutlined />}>{viewer.nickname}</Button>
      </AppLink>
    );
  }
  return (
    <>
      <AppLink to="/login" className="site-header__login" data-testid="nav-login">
        <Button type="text">{t("nav.login")}</Button>
      </AppLink>
      <AppLink to="/registered" className="site-header__cta">
        <Button type="primary">{t("nav.start")}</Button>
      </AppLink>
    </>
  );
}

function NavList({ pathname, onNavigate, withIntro = false }: { pathname: string; onNavigate: () => void; withIntro?: boolean }) {
  const { t } = useTranslation();
  const items = withIntro ? [...NAV, { to: "/intro", key: "nav.intro" as const }] : NAV;
  return (
    <nav className="phone-nav">
      {items.map((n) => (
        <AppLink key={n.to} to={n.to} onClick={onNavigate} className={`phone-nav__link${isActive(pathname, n.to) ? " is-active" : ""}`}>
          {t(n.key)}
        </AppLink>
      ))}
    </nav>
  );
}

function SiteFooter({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { contactPhone } = useShell();
  const icp = useFlag("icp_filing");
  return (
    <footer className={`site-footer${compact ? " site-footer--compact" : ""}`}>
      <div className="site-footer__inner">
        {!compact && (
          <div className="site-footer__brand">
            <BrandLogo light />
            <p>{t("footer.tagline")}</p>
          </div>
        )}
        <div className="site-footer__links">
          <AppLink to="/case">{t("nav.case")}</AppLink>
          <AppLink to="/scheme">{t("nav.scheme")}</AppLink>
          <AppLink to="/partner">{t("nav.partner")}</AppLink>
          <AppLink to="/policy">{t("footer.policy")}</AppLink>
          <AppLink to="/terms">{t("footer.terms")}</AppLink>
        </div>
        <div className="site-footer__contact">
          <span>{t("footer.contact", { phone: contactPhone })}</span>
          <span>{t("footer.copyright", { year: 2026 })}</span>
          {icp && <span>{t("footer.icp")}</span>}
        </div>
      </div>
    </footer>
  );
}
