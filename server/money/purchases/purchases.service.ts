// Selling: an app's paid plan (by days or by count) and an agent's buyout. One
// transaction per purchase: the buyer's coins are spent (gift credit first) under the key
// `purchase:<buyer>:<request_id>` and split by `splitSale` — 10% to the platform, the sharer's
// dividend when bought through a `touser` link, the rest to the developer — and the Purchase row
// is written with it. A double click (same request_id) waits for the first and gets its purchase.
import { effectiveEdition } from "../../accounts/entitlements.service";
import { EDITIONS } from "../../accounts/editions";
import { AppError } from "../../errors/app-error";
import type { TTx } from "../../db/transaction";
import { getWallet, platform, spend, wallet } from "../ledger.service";
import { splitSale } from "../money.constants";
import { isServedByLink } from "../../app-review-policy";
import * as repo from "./purchases.repository";
import type { TBuyAgentInput, TBuyAppPlanInput, TPurchaseView } from "./purchases.schema";

const DAY_MS = 86_400_000;
/**
 * Agents carry no share ratio of their own (only apps have one): a buyout through a share link
 * pays the sharer the smallest share an app may set (SHARE_RATIO.min, 10%).
 * docs/decisions/0009-selling-plans-buyouts-refunds.md.
 */
export const AGENT_SHARE_PERCENT = 10;

export type TBuyer = { id: string };

export const purchaseKey = (buyerId: string, requestId: string) => `purchase:${buyerId}:${requestId}`;

export function toPurchaseView(p: repo.TPurchaseRow): TPurchaseView {
  return {
    id: p.id,
    kind: p.kind,
    target_type: p.targetType,
    app_id: p.appId,
    plan_id: p.planId,
    agent_id: p.agentId,
    price_micro: Number(p.priceMicro),
    starts_at: p.startsAt?.toISOString() ?? null,
    ends_at: p.endsAt?.toISOString() ?? null,
    uses_total: p.usesTotal,
    uses_used: p.usesUsed,
    daily_limit: p.dailyLimit,
    sharer_account_id: p.sharerAccountId,
    refunded_at: p.refundedAt?.toISOString() ?? null,
    created_at: p.createdAt.toISOString(),
  };
}

/**
 * The sharer who earns a dividend, or null: the touser must be an active account that is neither
 * the buyer nor the developer, and whose edition (as of now) includes distribution.
 */
export async function resolveSharer(touser: string | undefined, buyerId: string, developerId: string, now: Date, tx: TTx) {
  if (!touser || touser === buyerId || touser === developerId) return null;
  const sharer = await repo.findAccountEdition(touser, tx);
  if (!sharer || sharer.status !== "active") return null;
  return EDITIONS[effectiveEdition(sharer, now)].features.distribution ? sharer.id : null;
}

type TSale = {
  buyerId: string;
  developerId: string;
  priceMicro: number;
  sharerId: string | null;
  sharePercent: number;
  memo: Record<string, unknown>;
};

/** Spends the price from the buyer to the platform, the sharer and the developer (one ledger transaction). */
async function chargeSale(key: string, s: TSale, tx: TTx) {
  const parts = splitSale(s.priceMicro, s.sharerId ? s.sharePercent : null);
  const credits = [
    { account: platform("platform_revenue"), amount: parts.platform },
    { account: wallet("spendable", s.developerId), amount: parts.developer },
    ...(s.sharerId ? [{ account: wallet("spendable", s.sharerId), amount: parts.sharer }] : []),
  ].filter((c) => c.amount > 0);
  const memo = {
    ...s.memo,
    buyerAccountId: s.buyerId,
    developerAccountId: s.developerId,
    ...(s.sharerId ? { sharerAccountId: s.sharerId, sharePercent: s.sharePercent } : {}),
  };
  return spend({ key, kind: "purchase", payer: s.buyerId, amount: s.priceMicro, credits, memo }, tx);
}

/** The first purchase under this key when the request names the same thing; another thing: idempotency_conflict. */
async function replayed(key: string, same: (p: repo.TPurchaseRow) => boolean, tx: TTx) {
  const first = await repo.findPurchaseByLedgerKey(key, tx);
  if (!first) return null;
  if (!same(first)) throw new AppError("idempotency_conflict");
  return { purchase: toPurchaseView(first), replayed: true };
}

/** Buys one of the plans of an app served by its link (app-review-policy.ts). Days plans run on from the buyer's current one; count plans give `quantity` uses. */
export async function buyAppPlan(buyer: TBuyer, input: TBuyAppPlanInput, now = new Date()) {
  const key = purchaseKey(buyer.id, input.request_id);
  return repo.runInTransaction(async (tx) => {
    await repo.lockKey(key, tx);
    const again = await replayed(key, (p) => p.appId === input.app_id && p.planId === input.plan_id, tx);
    if (again) return again;

    const app = await repo.findAppForSale(input.app_id, tx);
    if (!app) throw new AppError("not_found");
    const plan = app.plans.find((p) => p.id === input.plan_id);
    if (!isServedByLink(app) || !plan || app.ownerAccountId === buyer.id) throw new AppError("not_for_sale");
    const priceMicro = Number(plan.priceMicro);
    if (priceMicro <= 0) throw new AppError("not_for_sale");

    let startsAt: Date | null = null;
    let endsAt: Date | null = null;
    if (plan.kind === "days") {
      // Renewals of one app by one buyer queue up one after another.
      await repo.lockKey(`renew:${buyer.id}:${app.id}`, tx);
      const lastEnd = await repo.findLastDaysEnd(buyer.id, app.id, tx);
      startsAt = lastEnd && lastEnd > now ? lastEnd : now;
      endsAt = new Date(startsAt.getTime() + plan.quantity * DAY_MS);
    }
    const sharerId = await resolveSharer(input.touser, buyer.id, app.ownerAccountId, now, tx);
    const posted = await chargeSale(
      key,
      {
        buyerId: buyer.id,
        developerId: app.ownerAccountId,
        priceMicro,
        sharerId,
        sharePercent: app.shareRatio,
        memo: { appId: app.id, appName: app.name, planId: plan.id, ...(plan.kind === "days" ? { days: plan.quantity } : {}) },
      },
      tx,
    );
    const purchase = await repo.insertPurchase(
      {
        buyerAccountId: buyer.id,
        targetType: "app_plan",
        appId: app.id,
        planId: plan.id,
        kind: plan.kind,
        priceMicro: BigInt(priceMicro),
        startsAt,
        endsAt,
        usesTotal: plan.kind === "count" ? plan.quantity : null,
        dailyLimit: plan.dailyLimit,
        sharerAccountId: sharerId,
        ledgerTransactionId: posted.id,
        createdAt: now,
      },
      tx,
    );
    return { purchase: toPurchaseView(purchase), replayed: false };
  });
}

/** The buyout price of an agent's on-shelf version, or null when it is not sold. */
export function buyoutPriceOf(config: unknown): number | null {
  const price = Number((config as { purchase_price_micro?: unknown } | null)?.purchase_price_micro ?? 0);
  return Number.isSafeInteger(price) && price > 0 ? price : null;
}

/** Buys an agent out (its on-shelf version's purchase price); once bought, it is the buyer's to chat with. */
export async function buyAgent(buyer: TBuyer, input: TBuyAgentInput, now = new Date()) {
  const key = purchaseKey(buyer.id, input.request_id);
  return repo.runInTransaction(async (tx) => {
    await repo.lockKey(key, tx);
    const again = await replayed(key, (p) => p.agentId === input.agent_id && p.kind === "buyout", tx);
    if (again) return again;

    const agent = await repo.findAgentForSale(input.agent_id, tx);
    if (!agent) throw new AppError("not_found");
    const priceMicro = agent.version ? buyoutPriceOf(agent.version.config) : null;
    if (!priceMicro || agent.ownerAccountId === buyer.id) throw new AppError("not_for_sale");
    // One buyout is enough: buying again would pay twice for the same thing.
    await repo.lockKey(`buyout:${buyer.id}:${agent.id}`, tx);
    if (await repo.findActiveBuyout(buyer.id, agent.id, tx)) throw new AppError("not_for_sale");

    const sharerId = await resolveSharer(input.touser, buyer.id, agent.ownerAccountId, now, tx);
    const posted = await chargeSale(
      key,
      {
        buyerId: buyer.id,
        developerId: agent.ownerAccountId,
        priceMicro,
        sharerId,
        sharePercent: AGENT_SHARE_PERCENT,
        memo: { agentId: agent.id, agentName: agent.name },
      },
      tx,
    );
    const purchase = await repo.insertPurchase(
      {
        buyerAccountId: buyer.id,
        targetType: "agent_buyout",
        agentId: agent.id,
        kind: "buyout",
        priceMicro: BigInt(priceMicro),
        sharerAccountId: sharerId,
        ledgerTransactionId: posted.id,
        createdAt: now,
      },
      tx,
    );
    return { purchase: toPurchaseView(purchase), replayed: false };
  });
}

/** For the chat runtime (H6): has this account bought this agent out (and not been refunded)? */
export async function hasAgentBuyout(accountId: string, agentId: string): Promise<boolean> {
  return Boolean(await repo.findActiveBuyout(accountId, agentId));
}

/** What a plan sheet or /detail shows: what is on sale, and the viewer's balance when signed in. */
export async function getOffer(viewer: TBuyer | null, target: { app_id: string } | { agent_id: string }) {
  const balance = viewer ? (await getWallet(viewer.id)).available : null;
  if ("app_id" in target) {
    const app = await repo.findAppForSale(target.app_id);
    if (!app || !isServedByLink(app)) throw new AppError("not_found");
    return {
      kind: "app" as const,
      signed_in: Boolean(viewer),
      own: viewer?.id === app.ownerAccountId,
      balance_micro: balance,
      share_percent: app.shareRatio,
      plans: app.plans.map((p) => ({ id: p.id, kind: p.kind, quantity: p.quantity, price_micro: Number(p.priceMicro), daily_limit: p.dailyLimit })),
      buyout_price_micro: null,
      bought_out: false,
    };
  }
  const agent = await repo.findAgentForSale(target.agent_id);
  if (!agent?.version) throw new AppError("not_found");
  return {
    kind: "agent" as const,
    signed_in: Boolean(viewer),
    own: viewer?.id === agent.ownerAccountId,
    balance_micro: balance,
    share_percent: AGENT_SHARE_PERCENT,
    plans: [],
    buyout_price_micro: buyoutPriceOf(agent.version.config),
    bought_out: viewer ? await hasAgentBuyout(viewer.id, agent.id) : false,
  };
}
export type TOffer = Awaited<ReturnType<typeof getOffer>>;
