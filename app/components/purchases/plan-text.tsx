// What a plan gives, in words: "30 days" / "10 uses", and its daily limit. Used by the H5 plan
// sheet and /detail (plain text, so the lean phone page stays light).
import { useTranslation } from "react-i18next";
import type { TOfferPlan } from "./purchase-api";

export function PlanText({ plan, part }: { plan: Pick<TOfferPlan, "kind" | "quantity" | "daily_limit">; part: "quantity" | "detail" }) {
  const { t } = useTranslation("purchases");
  if (part === "quantity") return <>{plan.kind === "days" ? t("plan.days", { count: plan.quantity }) : t("plan.uses", { count: plan.quantity })}</>;
  const limit = plan.daily_limit === null ? t("plan.no_daily_limit") : t("plan.daily_limit", { count: plan.daily_limit });
  return <>{`${plan.kind === "days" ? t("plan.days_what") : t("plan.uses_what")} · ${limit}`}</>;
}
