// Whether an app opens through its own link (share page, H5 chat, plan sheet, share panel) for
// anyone but its owner. On the shelf it always does. Waiting for review it does only under the
// "listing" policy, where review gates the market listing alone (as Coze lets a bot be used through
// its own link while its store listing is reviewed) — and not when an administrator removed it
// before: a resubmitted app stays closed until an administrator approves it again.
// It sits beside env.ts, whose APP_REVIEW_POLICY it interprets, below the areas that ask: apps,
// chat turns, and selling (money/purchases), which asks without depending on apps (apps pay for
// their turns through money).
import { appReviewPolicy, type TAppReviewPolicy } from "./env";

export type TReviewedApp = { state: string; removedAt: Date | null };

export function isServedByLink(app: TReviewedApp, policy: TAppReviewPolicy = appReviewPolicy()): boolean {
  if (app.state === "on_shelf") return true;
  return app.state === "under_review" && policy === "listing" && app.removedAt === null;
}

/** What the owner's pages say of an app waiting for review: usable by its link already, or not yet. */
export function describeWaitingApp(app: TReviewedApp, policy: TAppReviewPolicy = appReviewPolicy()): "link_works" | "closed" {
  return isServedByLink({ ...app, state: "under_review" }, policy) ? "link_works" : "closed";
}
