// The phone's error page. /mobi/error?reason=<h5 reason> explains why an app cannot open (missing,
// removed with the administrator's reason, off shelf, under review, no permission);
// /mobi/error?code=<catalogue code> shows any refusal of the errors catalogue in the user's language.
import { HomeOutlined, ScanOutlined, StopOutlined, WarningOutlined } from "@ant-design/icons";
import { useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { LanguageSwitcher } from "../../components/shell/preference-switchers";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/h5.css";

export const handle = { i18n: ["errors", "mobi", "h5"] };
export const meta = pageMeta("Zelin");

const REASONS = ["missing", "removed", "off_shelf", "under_review", "no_permission", "not_found"] as const;

export default function MobiError() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const reason = params.get("reason") ?? "";
  const code = params.get("code") ?? "";
  const detail = params.get("detail")?.slice(0, 200);
  const knownReason = (REASONS as readonly string[]).includes(reason);
  const knownCode = /^[a-z_]+$/.test(code) && t(code, { ns: "errors", defaultValue: "" }) !== "";
  const title = knownReason ? t(`error.${reason}.title`, { ns: "h5" }) : knownCode ? t(code, { ns: "errors" }) : t("shell.errors.failed_title");
  const body = knownReason ? t(`error.${reason}.body`, { ns: "h5" }) : knownCode ? undefined : t("shell.errors.failed_body");
  const blocked = reason === "no_permission" || reason === "removed";
  return (
    <main className="h5-page h5-error" data-testid="mobi-error" data-reason={knownReason ? reason : code || "unknown"}>
      <div className="h5-error__tools">
        <LanguageSwitcher compact />
      </div>
      <section className="h5-panel h5-error__panel">
        <span className={`h5-error__icon${blocked ? " is-blocked" : ""}`}>{blocked ? <StopOutlined /> : <WarningOutlined />}</span>
        <h1 className="h5-title" data-testid="mobi-error-title">
          {title}
        </h1>
        {body && <p className="h5-muted">{body}</p>}
        {reason === "removed" && detail && (
          <p className="h5-error__detail" data-testid="mobi-error-detail">
            {t("error.removed.detail", { ns: "h5", reason: detail })}
          </p>
        )}
        <div className="h5-actions">
          <AppLink to="/" className="h5-btn h5-btn--primary h5-btn--block">
            <HomeOutlined /> {t("shell.errors.back_home")}
          </AppLink>
          {knownReason && (
            <AppLink to="/mobi/scan" className="h5-btn h5-btn--block">
              <ScanOutlined /> {t("scan.title", { ns: "h5" })}
            </AppLink>
          )}
        </div>
      </section>
    </main>
  );
}
