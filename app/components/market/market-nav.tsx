// The market's own bar under the site header: home, app centre, agent market, and the search box.
import { Input } from "antd";
import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AppLink, useAppNavigate } from "../app-link";

const LINKS = [
  { to: "/index", key: "nav.home", match: ["/index", "/home"] },
  { to: "/app_store", key: "nav.app_store", match: ["/app_store"] },
  { to: "/intelligent_stores", key: "nav.agents", match: ["/intelligent_stores"] },
] as const;

export function MarketNav({ query = "" }: { query?: string }) {
  const { t } = useTranslation("market");
  const navigate = useAppNavigate();
  const path = useLocation().pathname.replace(/^\/mobi(?=\/|$)/, "");
  return (
    <div className="mk-nav">
      <nav className="mk-nav__links" aria-label={t("nav.label")}>
        {LINKS.map((l) => (
          <AppLink key={l.to} to={l.to} className={`mk-nav__link${(l.match as readonly string[]).includes(path) ? " is-active" : ""}`}>
            {t(l.key)}
          </AppLink>
        ))}
      </nav>
      <Input.Search
        key={query}
        className="mk-nav__search"
        defaultValue={query}
        placeholder={t("search.placeholder")}
        allowClear
        enterButton
        maxLength={100}
        aria-label={t("search.placeholder")}
        data-testid="market-search"
        onSearch={(value) => value.trim() && navigate(`/search?q=${encodeURIComponent(value.trim())}`)}
      />
    </div>
  );
}
