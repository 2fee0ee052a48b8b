// The public site's frame: header, footer, and the phone variant for /mobi pages.
import { MenuOutlined, ShopOutlined, UserOutlined } from "@ant-design/icons";
import { Link, Outlet, useLocation, useRouteLoaderData } from "@remix-run/react";
import { carryQuery } from "../../lib/carry-query";
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
  // The market: its home, and the pages reached from it light the entry up too.
  { to: "/index", key: "nav.market", also: ["/home", "/app_store", "/intelligent_stores", "/search", "/detail", "/discussion", "/customer"] },
  { to: "/case", key: "nav.case" },
  { to: "/scheme", key: "nav.scheme" },
  { to: "/partner", key: "nav.partner" },
] as const;

function isActive(pathname: string, to: string, also: readonly string[] = []) {
  const plain = pathname.replace(/^\/mobi(?=\/|$)/, "") || "/";
  return to === "/" ? plain === "/" : [to, ...also].some((p) => plain.startsWith(p));
}

const alsoOf = (n: (typeof NAV)[number] | { to: string }) => ("also" in n ? n.also : []);

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
              <AppLink
                key={n.to}
                to={n.to}
                className={`site-nav__link${isActive(pathname, n.to, alsoOf(n)) ? " is-active" : ""}`}
                data-testid={`site-nav-${n.to.slice(1) || "home"}`}
              >
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
        <DrawerExtras />
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
          <AppLink to="/index" aria-label={t("nav.market")} data-testid="phone-market">
            <Button type="text" icon={<ShopOutlined />} />
          </AppLink>
          <ViewerButtons compact />
          <Button type="text" aria-label={t("nav.menu")} data-testid="phone-menu" icon={<MenuOutlined />} onClick={() => setOpen(true)} />
        </div>
      </header>
      <Drawer open={open} onClose={() => setOpen(false)} placement="right" size="78%" title={t("nav.menu")}>
        <NavList pathname={pathname} onNavigate={() => setOpen(false)} withIntro />
        <DrawerExtras />
      </Drawer>
      <main className="phone-main">
        <Outlet />
      </main>
      <SiteFooter compact />
    </div>
  );
}

/**
 * Signed out: log in and sign up; signed in: straight to the workspace. `compact` is the phone
 * header's: small buttons and short words, so both fit beside the logo at 375 px.
 */
function ViewerButtons({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const viewer = useRouteLoaderData<TRootData>("root")?.viewer;
  const size = compact ? "small" : "middle";
  if (viewer) {
    return (
      <AppLink to="/workspace" className="site-header__cta site-header__viewer" data-testid="viewer">
        <Button type="primary" size={size} icon={<UserOutlined />}>
          <span className="site-header__viewer-name">{compact ? t("nav.console") : viewer.nickname}</span>
        </Button>
      </AppLink>
    );
  }
  return (
    <>
      <AppLink to="/login" className="site-header__login" data-testid="nav-login">
        <Button type="text" size={size}>
          {t("nav.login")}
        </Button>
      </AppLink>
      <AppLink to="/registered" className="site-header__cta" data-testid="nav-register">
        <Button type="primary" size={size}>
          {compact ? (
            t("nav.sign_up")
          ) : (
            <>
              <span className="site-header__cta-long">{t("nav.start")}</span>
              <span className="site-header__cta-short">{t("nav.sign_up")}</span>
            </>
          )}
        </Button>
      </AppLink>
    </>
  );
}

/** The drawer's foot: the language and size switches, and the other version of the site. */
function DrawerExtras() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const mobi = useIsMobi();
  // Not AppLink: on a phone page it would turn "/" into "/mobi". A full load, as the answer sets a cookie.
  const other = carryQuery(mobi ? "/?desktop=1" : "/mobi?desktop=0", search);
  return (
    <div className="phone-nav__size">
      <LanguageSwitcher />
      <UiSizeSwitcher />
      <Link to={other} reloadDocument className="phone-nav__other" data-testid={mobi ? "desktop-site" : "phone-site"}>
        {mobi ? t("nav.desktop_site") : t("nav.phone_site")}
      </Link>
    </div>
  );
}

function NavList({ pathname, onNavigate, withIntro = false }: { pathname: string; onNavigate: () => void; withIntro?: boolean }) {
  const { t } = useTranslation();
  const items = withIntro ? [...NAV, { to: "/intro", key: "nav.intro" as const }] : NAV;
  return (
    <nav className="phone-nav">
      {items.map((n) => (
        <AppLink
          key={n.to}
          to={n.to}
          onClick={onNavigate}
          className={`phone-nav__link${isActive(pathname, n.to, alsoOf(n)) ? " is-active" : ""}`}
          data-testid={`phone-nav-${n.to.slice(1) || "home"}`}
        >
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
          <AppLink to="/index" data-testid="footer-market">
            {t("nav.market")}
          </AppLink>
          <AppLink to="/app_store" data-testid="footer-app-store">
            {t("nav.app_store")}
          </AppLink>
          <AppLink to="/intelligent_stores" data-testid="footer-agent-market">
            {t("nav.agent_market")}
          </AppLink>
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
