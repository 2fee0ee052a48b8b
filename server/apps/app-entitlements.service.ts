// Who may use an app now, and on what basis (contract 6; the money issue adds purchased plans).
// The owner always may. Anyone else: free uses per China-time day while `freePerDay` lasts, then
// an active trial (`trialDays` from the consumer's first use), then a plan. An app that sets none
// of these is free without limit. Each reply given is one AppUse row.
//
// Concurrency: the decision and the use's row are made under a transaction-scoped advisory lock
// per app, consumer and day (`claimUse`), so two requests at the last free use cannot both pass:
// the second waits for the first's row and counts it. A claimed use whose turn gives no reply is
// released again.
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

type TDecision = { basis: TUseBasis; remainingToday: number | null; trialEndsAt: Date | null } | { refusal: NonNullable<TEntitlementView["refusal"]>; trialEndsAt: Date | null };

async function decide(app: TEntitledApp, consumer: TConsumer, now: Date, tx?: Parameters<typeof repo.countUsesOnDay>[4]): Promise<TDecision> {
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
  // Purchased plans arrive with the money issue (7): until then nobody holds one.
  return { refusal: app.plans.length > 0 ? "trial_count_zero" : "times_exhausted", trialEndsAt };
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

export type TUseClaim = { id: string; basis: TUseBasis };

/**
 * Decides again under the lock and records the use (tokens follow with `finishUse`). The row
 * counts at once, so a concurrent request sees it; `releaseUse` takes it back when no reply came.
 */
export async function claimUse(app: TEntitledApp, consumer: TConsumer, use: { source: TUseSource; apiKeyId?: string | null; dialogueId?: string | null }, now = new Date()): Promise<TUseClaim> {
  const who = consumerKey(consumer);
  const day = chinaDay(now);
  return repo.runInTransaction(async (tx) => {
    await repo.lockConsumerDay(app.id, keyText(who), day, tx);
    const d = await decide(app, consumer, now, tx);
    if ("refusal" in d) throw new AppError(d.refusal);
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
        createdAt: now,
      },
      tx,
    );
    return { id: row.id, basis: d.basis };
  });
}

/** The reply was given: its dialogue and tokens go on the use. */
export async function finishUse(claim: TUseClaim, r: { dialogueId: string; promptTokens: number; completionTokens: number }) {
  await repo.updateUse(claim.id, { dialogueId: r.dialogueId, promptTokens: r.promptTokens, completionTokens: r.completionTokens });
}

/** No reply was given (refused later, failed, censored, hung up before any text): not a use. */
export async function releaseUse(claim: TUseClaim) {
  await repo.deleteUse(claim.id);
}

/** What the app's pages show: the basis of the next use, free uses left today, the trial's end, the plans. */
export async function describeEntitlement(app: TEntitledApp, consumer: TConsumer, now = new Date()): Promise<TEntitlementView> {
  const d = await decide(app, consumer, now);
  const plans = app.plans.map((p) => ({ id: p.id, kind: p.kind, quantity: p.quantity, price_micro: Number(p.priceMicro), daily_limit: p.dailyLimit }));
  if ("refusal" in d) return { basis: null, remainingToday: app.freePerDay > 0 ? 0 : null, trialEndsAt: d.trialEndsAt?.toISOString() ?? null, plans, refusal: d.refusal };
  return { basis: d.basis, remainingToday: d.remainingToday, trialEndsAt: d.trialEndsAt?.toISOString() ?? null, plans, refusal: null };
}
