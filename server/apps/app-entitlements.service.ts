// Who may use an app now, and on what basis (free uses, trial, plans bought through server/money/purchases).
// The owner always may. Anyone else: free uses per China-time day while `freePerDay` lasts, then
// an active trial (`trialDays` from the consumer's first use), then a purchased plan (signed-in
// accounts only: a visitor cannot buy): a days plan within its dates, a count plan with uses left,
// either within its daily limit per China day. An app that sets none of these is free without
// limit. Each reply given is one AppUse row; a plan's use names its purchase.
//
// Refusals: never bought a plan of an app that sells them → trial_count_zero ("trial
// count is 0, purchase"); the days plan ended → days_exhausted ("days exhausted, renew"); the
// count plan used up → trial_count_zero; a plan's daily limit reached, or the free count of the day
// used with no plans on sale → times_exhausted ("try tomorrow"). Refunded purchases grant nothing.
//
// Concurrency: the decision and the use's row are made under a transaction-scoped advisory lock
// per app, consumer and day (`claimUse`), so two requests at the last free use cannot both pass:
// the second waits for the first's row and counts it. A count plan's use is taken by a guarded
// increment (uses_used < uses_total) in the same transaction, so its last use passes once even
// across the lock's day boundary. A claimed use whose turn gives no reply is released again, and
// a count plan gets its use back.
import { AppError } from "../errors/app-error";
import * as repo from "./app-uses.repository";

export type TUseBasis = "owner" | "free" | "trial" | "plan";
export type TUseSource = "h5" | "api" | "bot";

/** The one using the app: a signed-in account, else an anonymous visitor (never both null). */
export type TConsumer = { account: { id: string; roles: string[]; enterpriseId: string | null } | null; visitorId: string | null };

export type TEntitledApp = Pick<repo.TAppForTurn, "id" | "ownerAccountId" | "trialDays" | "freePerDay" | "plans">;

export type TEntitlementView = {
  basis: TUseBasis | null;
  /** Free uses left today (China time); null when the app has no free count or the basis is not free-counted. */
  remainingToday: number | null;
  trialEndsAt: string | null;
  plans: { id: string; kind: "days" | "count"; quantity: number; price_micro: number; daily_limit: number | null }[];
  /** Why the next use would be refused, or null. */
  refusal: "times_exhausted" | "trial_count_zero" | "days_exhausted" | null;
  /** The purchase the next use counts against (or, when refused, the one last in force), or null. */
  purchase: TPurchaseState | null;
};

export type TPurchaseState = {
  id: string;
  kind: "days" | "count";
  /** Days plans: the end of the last one bought (renewals queue up), whole days left rounded up. */
  ends_at: string | null;
  days_left: number | null;
  /** Count plans: uses left over all of this app's count plans. */
  uses_left: number | null;
  daily_limit: number | null;
  used_today: number;
};

const DAY_MS = 86_400_000;
const CHINA_OFFSET_MS = 8 * 3600_000;

/** YYYYMMDD of the day in China time (UTC+8, no daylight saving). */
export function chinaDay(now: Date): number {
  const d = new Date(now.getTime() + CHINA_OFFSET_MS);
  return d.getUTCFullYear() * 10_000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

export function consumerKey(c: TConsumer): repo.TConsumerKey {
  if (c.account) return { accountId: c.account.id };
  if (c.visitorId) return { visitorId: c.visitorId };
  throw new AppError("not_logged_in");
}

const keyText = (k: repo.TConsumerKey) => ("accountId" in k ? `a:${k.accountId}` : `v:${k.visitorId}`);

type TDecision =
  | { basis: TUseBasis; remainingToday: number | null; trialEndsAt: Date | null; purchase?: TPurchaseState; purchaseId?: string; countPlan?: boolean }
  | { refusal: NonNullable<TEntitlementView["refusal"]>; trialEndsAt: Date | null; purchase?: TPurchaseState };
type TTx = Parameters<typeof repo.countUsesOnDay>[4];

async function decide(app: TEntitledApp, consumer: TConsumer, now: Date, tx?: TTx): Promise<TDecision> {
  if (consumer.account?.id === app.ownerAccountId) return { basis: "owner", remainingToday: null, trialEndsAt: null };
  const who = consumerKey(consumer);
  const limited = app.freePerDay > 0 || app.trialDays > 0 || app.plans.length > 0;
  if (!limited) return { basis: "free", remainingToday: null, trialEndsAt: null };
  if (app.freePerDay > 0) {
    const used = await repo.countUsesOnDay(app.id, who, chinaDay(now), ["free"], tx);
    if (used < app.freePerDay) return { basis: "free", remainingToday: app.freePerDay - used, trialEndsAt: null };
  }
  let trialEndsAt: Date | null = null;
  if (app.trialDays > 0) {
    const first = (await repo.findFirstUseAt(app.id, who, tx)) ?? now;
    trialEndsAt = new Date(first.getTime() + app.trialDays * DAY_MS);
    if (now < trialEndsAt) return { basis: "trial", remainingToday: app.freePerDay > 0 ? 0 : null, trialEndsAt };
  }
  const neverBought = { refusal: app.plans.length > 0 ? ("trial_count_zero" as const) : ("times_exhausted" as const), trialEndsAt };
  // Only an account buys plans: a visitor is offered sign-in.
  if (!consumer.account) return neverBought;
  const purchases = await repo.listPlanPurchases(app.id, consumer.account.id, tx);
  if (!purchases.length) return neverBought;
  return { ...(await decideByPlans(purchases, now, tx)), trialEndsAt, remainingToday: app.freePerDay > 0 ? 0 : null } as TDecision;
}

/** Days plans in force first (they run out by themselves), then count plans oldest first. */
async function decideByPlans(purchases: repo.TPlanPurchase[], now: Date, tx?: TTx) {
  const day = chinaDay(now);
  const inForce = (p: repo.TPlanPurchase) =>
    p.kind === "days" ? !!p.startsAt && !!p.endsAt && p.startsAt <= now && now < p.endsAt : (p.usesTotal ?? 0) > p.usesUsed;
  const candidates = [...purchases.filter((p) => p.kind === "days" && inForce(p)), ...purchases.filter((p) => p.kind === "count" && inForce(p))];
  const usedToday = await repo.countPlanUsesOnDay(
    candidates.map((p) => p.id),
    day,
    tx,
  );
  const lastDaysEnd = purchases.reduce<Date | null>((m, p) => (p.kind === "days" && p.endsAt && (!m || p.endsAt > m) ? p.endsAt : m), null);
  const usesLeft = purchases.some((p) => p.kind === "count")
    ? purchases.reduce((n, p) => n + (p.kind === "count" ? Math.max(0, (p.usesTotal ?? 0) - p.usesUsed) : 0), 0)
    : null;
  const state = (p: repo.TPlanPurchase): TPurchaseState => ({
    id: p.id,
    kind: p.kind === "days" ? "days" : "count",
    ends_at: lastDaysEnd?.toISOString() ?? null,
    days_left: lastDaysEnd ? Math.max(0, Math.ceil((lastDaysEnd.getTime() - now.getTime()) / DAY_MS)) : null,
    uses_left: usesLeft,
    daily_limit: p.dailyLimit,
    used_today: usedToday.get(p.id) ?? 0,
  });
  const granting = candidates.find((p) => p.dailyLimit === null || (usedToday.get(p.id) ?? 0) < p.dailyLimit);
  if (granting) return { basis: "plan" as const, purchase: state(granting), purchaseId: granting.id, countPlan: granting.kind === "count" };
  const last = candidates[0] ?? purchases[purchases.length - 1];
  // A plan in force whose daily limit is reached: tomorrow again.
  if (candidates.length) return { refusal: "times_exhausted" as const, purchase: state(last) };
  const daysEnded = lastDaysEnd !== null && lastDaysEnd <= now;
  const latest = purchases[purchases.length - 1];
  return { refusal: daysEnded && latest.kind === "days" ? ("days_exhausted" as const) : ("trial_count_zero" as const), purchase: state(last) };
}

/**
 * Refuses (times_exhausted, trial_count_zero, days_exhausted) when the consumer may not use the
 * app now; writes nothing. Call before any row is written or any upstream asked.
 */
export async function assertMayUse(app: TEntitledApp, consumer: TConsumer, now = new Date()): Promise<TUseBasis> {
  const d = await decide(app, consumer, now);
  if ("refusal" in d) throw new AppError(d.refusal);
  return d.basis;
}

export type TUseClaim = { id: string; basis: TUseBasis; purchaseId?: string | null };

/**
 * Decides again under the lock and records the use (tokens follow with `finishUse`). The row
 * counts at once, so a concurrent request sees it; `releaseUse` takes it back when no reply came.
 */
export async function claimUse(
  app: TEntitledApp,
  consumer: TConsumer,
  use: { source: TUseSource; apiKeyId?: string | null; dialogueId?: string | null },
  now = new Date(),
): Promise<TUseClaim> {
  const who = consumerKey(consumer);
  const day = chinaDay(now);
  return repo.runInTransaction(async (tx) => {
    await repo.lockConsumerDay(app.id, keyText(who), day, tx);
    const d = await decide(app, consumer, now, tx);
    if ("refusal" in d) throw new AppError(d.refusal);
    // The count plan's use is taken by a guarded increment: its last use passes once.
    if (d.countPlan && d.purchaseId && !(await repo.takeCountUse(d.purchaseId, tx))) throw new AppError("trial_count_zero");
    const row = await repo.insertUse(
      {
        appId: app.id,
        accountId: "accountId" in who ? who.accountId : null,
        visitorId: "visitorId" in who ? who.visitorId : null,
        source: use.source,
        basis: d.basis,
        day,
        dialogueId: use.dialogueId ?? null,
        apiKeyId: use.apiKeyId ?? null,
        purchaseId: d.purchaseId ?? null,
        createdAt: now,
      },
      tx,
    );
    return { id: row.id, basis: d.basis, purchaseId: d.purchaseId ?? null };
  });
}

/** The reply was given: its dialogue and tokens go on the use. */
export async function finishUse(claim: TUseClaim, r: { dialogueId: string; promptTokens: number; completionTokens: number }) {
  await repo.updateUse(claim.id, { dialogueId: r.dialogueId, promptTokens: r.promptTokens, completionTokens: r.completionTokens });
}

/** No reply was given (refused later, failed, censored, hung up before any text): not a use. */
export async function releaseUse(claim: TUseClaim) {
  await repo.runInTransaction(async (tx) => {
    const gone = await repo.deleteUseReturningPurchase(claim.id, tx);
    if (gone?.purchaseId) await repo.giveCountUseBack(gone.purchaseId, tx);
  });
}

/** What the app's pages show: the basis of the next use, free uses left today, the trial's end, the plans, the purchase in force. */
export async function describeEntitlement(app: TEntitledApp, consumer: TConsumer, now = new Date()): Promise<TEntitlementView> {
  const d = await decide(app, consumer, now);
  const plans = app.plans.map((p) => ({ id: p.id, kind: p.kind, quantity: p.quantity, price_micro: Number(p.priceMicro), daily_limit: p.dailyLimit }));
  const purchase = d.purchase ?? null;
  if ("refusal" in d)
    return {
      basis: null,
      remainingToday: app.freePerDay > 0 ? 0 : null,
      trialEndsAt: d.trialEndsAt?.toISOString() ?? null,
      plans,
      refusal: d.refusal,
      purchase,
    };
  return { basis: d.basis, remainingToday: d.remainingToday, trialEndsAt: d.trialEndsAt?.toISOString() ?? null, plans, refusal: null, purchase };
}
