// The run page's notes: what happens once a topic is given (before any run), a refusal in the
// reader's language (with the way to the app's plans when a plan is what is missing), and the page
// without a workshop or an app.
import { ApartmentOutlined, AppstoreOutlined, ShopOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import { WORKSHOP_LIST_PATH } from "./workshop-links";
import type { TRunPageData } from "./workshop-run.server";

/** The platform codes a purchase answers: trial count zero, times exhausted, days exhausted. */
const PLAN_REFUSALS = new Set([420702, 420003, 420004]);

export function RunIntro({ data }: { data: Exclude<TRunPageData, { kind: "none" }> }) {
  const { t } = useTranslation("workshops");
  const person = data.lineup?.roles.find((r) => r.type === "user" && !r.hosting);
  return (
    <section className="wsr-intro" data-testid="run-intro">
      {data.description && <p className="wsr-intro__text">{data.description}</p>}
      {data.lineup && data.lineup.nodes.length > 0 && (
        <ol className="wsr-intro__nodes">
          {data.lineup.nodes.map((n, i) => (
            <li key={`${n.name}-${i}`}>
              <b>{n.name}</b> <small>{t(`editor.nodes.mode.${n.speechMode}`)}</small>
            </li>
          ))}
        </ol>
      )}
      <p className="wsr-intro__how">{person ? t("run.how_with_you", { role: person.name }) : t("run.how")}</p>
      {data.kind === "debug" && <p className="wsr-intro__cost">{t("run.debug_cost")}</p>}
    </section>
  );
}

export function RunRefusal({ text, status, appId }: { text: string; status: number | null; appId: string | null }) {
  const { t } = useTranslation("workshops");
  return (
    <div className="wsr-refusal" role="alert" data-testid="run-refusal" data-status={status ?? ""}>
      <p>{text}</p>
      {appId && status !== null && PLAN_REFUSALS.has(status) && (
        <AppLink to={`/detail?id=${encodeURIComponent(appId)}`} className="h5-link">
          {t("run.see_plans")}
        </AppLink>
      )}
    </div>
  );
}

/** /workshop with neither a workshop nor an app: where runs are started from. */
export function RunNoSubject() {
  const { t } = useTranslation("workshops");
  return (
    <main className="h5-page" data-testid="workshop-run-none">
      <section className="h5-panel wsr-none">
        <span className="wsr-none__icon">
          <ApartmentOutlined />
        </span>
        <h1 className="h5-title">{t("run.none.title")}</h1>
        <p className="h5-muted">{t("run.none.lead")}</p>
      </section>
      <div className="h5-actions">
        <AppLink to={WORKSHOP_LIST_PATH} className="h5-btn h5-btn--primary h5-btn--block">
          <AppstoreOutlined /> {t("run.none.mine")}
        </AppLink>
        <AppLink to="/app_store" className="h5-btn h5-btn--block">
          <ShopOutlined /> {t("run.none.market")}
        </AppLink>
      </div>
    </main>
  );
}
