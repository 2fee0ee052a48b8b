// What one chat reply costs and who pays it (docs/decisions/0007-who-pays-the-channel-fee.md):
// the interaction channel fee (PRICES.chatMessageMicro) from the chatting account in the console,
// from the app's owner for an app's consumers; and for someone using another's agent, its use price.
//
// The turn reads the payer's balance with its context and refuses there when it cannot pay, before
// any row or upstream call. The charge itself is posted while the upstream request is on its way
// (chat-stream.ts waits for it before relaying the first token), so no text is shown unpaid and the
// first token waits for no extra round trip. When no reply came (failed, censored, stopped before
// any text) the fee goes back (`chat-refund:<id>`). The use price is held in escrow until the
// reply ends: then it goes to the platform (10%) and the developer, or back to the consumer. The
// developer's wallet is never debited for a refund it may already have spent.
import { AppError } from "../../errors/app-error";
import { AGENT_TRIAL_DAYS, PRICES, splitSale } from "../money.constants";
import { getWallet, platform, post, wallet, type TLeg } from "../ledger.service";
import type { TAgentInput } from "../../agents/agents.schema";
import { insertAgentUse, type TAgentUseBasis } from "./agent-uses.repository";

export type TRefusal = "balance_insufficient" | "app_owner_balance_insufficient";
export type TBalances = { gift: number; spendable: number };

/** The money side of one turn, settled before it streams. */
export type TTurnBill = {
  payer: string;
  /** What the consumer reads when the payer cannot pay. */
  refusal: TRefusal;
  /** The payer's balances as read with the turn; null: read when charging. */
  known: TBalances | null;
  memo: { agentId: string; agentName: string; appId?: string; appName?: string };
  /** Someone using another's agent (console live chat); null for the owner and for apps. */
  agentUse: TAgentUseDecision | null;
};

export type TAgentUseDecision = { basis: TAgentUseBasis; priceMicro: number; consumerAccountId: string; developerAccountId: string };

/** What was charged for a turn, so that it can be returned exactly. */
export type TTurnCharges = { chat: { id: string; legs: TLeg[] } | null; use: { id: string; legs: TLeg[] } | null };

export type TAgentStanding = { buyout: boolean; firstUseAt: Date | null; trialUses: number };

const DAY_MS = 86_400_000;

/**
 * May `consumer` use another's agent now, and on what basis
 * (docs/decisions/0007-who-pays-the-channel-fee.md): a buyout → free; within AGENT_TRIAL_DAYS of
 * the first use and under trial_count trial uses → trial; a use price → paid per reply; an agent
 * with no price at all → free; else refused: the trial's time ran out → trial_exhausted, otherwise
 * trial_count_zero ("trial count is 0, purchase").
 */
export function decideAgentUse(
  config: Pick<TAgentInput, "trial_count" | "use_price_micro" | "purchase_price_micro">,
  standing: TAgentStanding,
  ids: { consumerAccountId: string; developerAccountId: string },
  now: Date,
): TAgentUseDecision {
  const decision = (basis: TAgentUseBasis, priceMicro = 0) => ({ basis, priceMicro, ...ids });
  if (standing.buyout) return decision("buyout");
  const trialOpen = !standing.firstUseAt || now.getTime() < standing.firstUseAt.getTime() + AGENT_TRIAL_DAYS * DAY_MS;
  if (trialOpen && standing.trialUses < config.trial_count) return decision("trial");
  if (config.use_price_micro > 0) return decision("use", config.use_price_micro);
  if (config.purchase_price_micro === 0) return decision("free");
  if (!trialOpen && standing.trialUses < config.trial_count) throw new AppError("trial_exhausted");
  throw new AppError("trial_count_zero");
}

/** What the payer must hold for this turn. */
export function turnPriceMicro(bill: Pick<TTurnBill, "agentUse">): number {
  return PRICES.chatMessageMicro + (bill.agentUse?.basis === "use" ? bill.agentUse.priceMicro : 0);
}

/** Refuses the turn before it starts when the balances read with it cannot pay. */
export function assertMayPay(bill: TTurnBill) {
  if (bill.known && bill.known.gift + bill.known.spendable < turnPriceMicro(bill)) throw new AppError(bill.refusal);
}

/** Gift credit first, then coins; null when both together are short. */
function payerLegs(payer: string, b: TBalances, amount: number): TLeg[] | null {
  const gift = Math.min(Math.max(0, b.gift), amount);
  if (amount - gift > b.spendable) return null;
  return [
    { account: wallet("gift", payer), amount: -gift },
    { account: wallet("spendable", payer), amount: -(amount - gift) },
  ].filter((l) => l.amount !== 0);
}

const leftAfter = (b: TBalances, legs: TLeg[]): TBalances => ({
  gift: b.gift + (legs.find((l) => l.account.startsWith("gift:"))?.amount ?? 0),
  spendable: b.spendable + (legs.find((l) => l.account.startsWith("spendable:"))?.amount ?? 0),
});

/**
 * Posts `amount` from the payer to `credits`, split from the balances read with the turn (one
 * statement); when they moved meanwhile, read again and re-split. Not enough: the bill's refusal.
 */
async function charge(
  bill: TTurnBill,
  start: TBalances | null,
  p: { key: string; kind: "chat_charge" | "use_charge"; amount: number; credits: TLeg[]; memo: Record<string, unknown> },
) {
  let balances = start;
  for (let attempt = 0; attempt < 3; attempt++) {
    balances ??= await getWallet(bill.payer);
    const debits = payerLegs(bill.payer, balances, p.amount);
    if (!debits) throw new AppError(bill.refusal);
    try {
      const posted = await post({ key: p.key, kind: p.kind, accountId: bill.payer, memo: p.memo, legs: [...debits, ...p.credits] });
      return { id: posted.id, legs: debits, left: leftAfter(balances, debits) };
    } catch (err) {
      if (!(err instanceof AppError && err.code === "balance_insufficient")) throw err;
      balances = null;
    }
  }
  throw new AppError(bill.refusal);
}

/**
 * Charges the turn answered by `messageId`: the channel fee, then (a paid agent use) the use price
 * into escrow. A refusal leaves nothing charged: a fee already taken is returned first.
 */
/** The idempotency key of a reply's chat fee: a turn's reading finds its own early charge by it. */
export const chatChargeKey = (messageId: string) => `chat:${messageId}`;

export async function chargeTurn(bill: TTurnBill, messageId: string, dialogueId: string): Promise<TTurnCharges> {
  const memo = { ...bill.memo, messageId, dialogueId };
  const fee = PRICES.chatMessageMicro;
  const chat = await charge(bill, bill.known, {
    key: chatChargeKey(messageId),
    kind: "chat_charge",
    amount: fee,
    credits: [{ account: platform("platform_revenue"), amount: fee }],
    memo,
  });
  const out: TTurnCharges = { chat: { id: chat.id, legs: chat.legs }, use: null };
  const use = bill.agentUse;
  if (use?.basis === "use") {
    try {
      const held = await charge(bill, chat.left, {
        key: `agent-use:${messageId}`,
        kind: "use_charge",
        amount: use.priceMicro,
        credits: [{ account: platform("escrow"), amount: use.priceMicro }],
        memo: { ...memo, buyerAccountId: use.consumerAccountId, developerAccountId: use.developerAccountId, held: true },
      });
      out.use = { id: held.id, legs: held.legs };
    } catch (err) {
      await settleTurn(bill, messageId, dialogueId, out, false);
      throw err;
    }
  }
  return out;
}

/**
 * Once the reply ended. A reply given: the held use price goes to the platform and the developer,
 * and the agent use is recorded. None: everything charged goes back where it came from.
 */
export async function settleTurn(bill: TTurnBill, messageId: string, dialogueId: string, charges: TTurnCharges, replied: boolean) {
  const memo = { ...bill.memo, messageId, dialogueId };
  const use = bill.agentUse;
  if (!replied) {
    if (charges.chat) {
      const fee = -charges.chat.legs.reduce((s, l) => s + l.amount, 0);
      await post({
        key: `chat-refund:${messageId}`,
        kind: "chat_refund",
        accountId: bill.payer,
        memo,
        legs: [{ account: platform("platform_revenue"), amount: -fee }, ...charges.chat.legs.map((l) => ({ account: l.account, amount: -l.amount }))],
      });
    }
    if (charges.use && use) {
      await post({
        key: `agent-use-refund:${messageId}`,
        kind: "refund",
        accountId: bill.payer,
        memo: { ...memo, buyerAccountId: use.consumerAccountId, developerAccountId: use.developerAccountId },
        legs: [{ account: platform("escrow"), amount: -use.priceMicro }, ...charges.use.legs.map((l) => ({ account: l.account, amount: -l.amount }))],
      });
    }
    return;
  }
  if (!use) return;
  let ledgerTransactionId: string | null = null;
  if (charges.use && use.basis === "use") {
    const split = splitSale(use.priceMicro, null);
    await post({
      key: `agent-use-settle:${messageId}`,
      kind: "use_charge",
      accountId: use.developerAccountId,
      memo: { ...memo, buyerAccountId: use.consumerAccountId, developerAccountId: use.developerAccountId, chargeId: charges.use.id },
      legs: [
        { account: platform("escrow"), amount: -use.priceMicro },
        { account: platform("platform_revenue"), amount: split.platform },
        { account: wallet("spendable", use.developerAccountId), amount: split.developer },
      ],
    });
    ledgerTransactionId = charges.use.id;
  }
  await insertAgentUse({ agentId: bill.memo.agentId, accountId: use.consumerAccountId, basis: use.basis, ledgerTransactionId });
}

/**
 * A console chat's bill (debug or live): the chatting account pays the fee, within its edition's
 * replies per China day (times_exhausted beyond); in a live chat with another's agent, the agent's
 * terms apply as well. Refuses here, before anything is written or asked.
 */
export function billConsoleTurn(t: {
  accountId: string;
  chatsPerDay: number;
  chatsToday: number;
  wallet: TBalances;
  mode: "debug" | "live";
  agent: { agentId: string; name: string; ownerAccountId: string; config: Pick<TAgentInput, "trial_count" | "use_price_micro" | "purchase_price_micro"> };
  standing: TAgentStanding;
  now: Date;
}): TTurnBill {
  if (t.chatsToday >= t.chatsPerDay) throw new AppError("times_exhausted", { data: { limit: t.chatsPerDay } });
  const someoneElses = t.mode === "live" && t.agent.ownerAccountId !== t.accountId;
  const agentUse = someoneElses
    ? decideAgentUse(t.agent.config, t.standing, { consumerAccountId: t.accountId, developerAccountId: t.agent.ownerAccountId }, t.now)
    : null;
  const bill: TTurnBill = {
    payer: t.accountId,
    refusal: "balance_insufficient",
    known: t.wallet,
    memo: { agentId: t.agent.agentId, agentName: t.agent.name },
    agentUse,
  };
  assertMayPay(bill);
  return bill;
}

/**
 * A workshop turn's bill: the workshop's developer pays each reply's fee, in their own debug runs
 * and in their apps' runs alike (the run's price is charged apart, once per run).
 */
export function billWorkshopTurn(t: {
  payer: string;
  wallet: TBalances;
  agent: { agentId: string; name: string };
  app: { id: string; name: string } | null;
}): TTurnBill {
  const bill: TTurnBill = {
    payer: t.payer,
    refusal: "balance_insufficient",
    known: t.wallet,
    memo: { agentId: t.agent.agentId, agentName: t.agent.name, ...(t.app ? { appId: t.app.id, appName: t.app.name } : {}) },
    agentUse: null,
  };
  assertMayPay(bill);
  return bill;
}

/** An app's bill: its owner pays the fee for every consumer (H5, API, bots); consumers pay plans. */
export function billAppTurn(t: {
  ownerAccountId: string;
  ownerWallet: TBalances;
  app: { id: string; name: string };
  agent: { agentId: string; name: string };
}): TTurnBill {
  const bill: TTurnBill = {
    payer: t.ownerAccountId,
    refusal: "app_owner_balance_insufficient",
    known: t.ownerWallet,
    memo: { agentId: t.agent.agentId, agentName: t.agent.name, appId: t.app.id, appName: t.app.name },
    agentUse: null,
  };
  assertMayPay(bill);
  return bill;
}
