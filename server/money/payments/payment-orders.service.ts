// Payment orders: made for a purpose (top-up, edition, paid registration), handed to a provider,
// and watched by their payer until the provider's word settles them (payment-apply.service.ts).
import { AppError } from "../../errors/app-error";
import { logger } from "../../lib/logger";
import type { TSessionAccount } from "../../accounts/accounts.schema";
import { getWallet } from "../ledger.service";
import { FEN, toYuan } from "../money.constants";
import { getPaymentSettings } from "./payment-settings";
import * as repo from "./payment-orders.repository";
import { applyProviderReport } from "./payment-apply.service";
import { toOrderView } from "./payment-view";
import { getProvider, listProviders } from "./providers";
import { yuanTextToMicro } from "./providers/provider.types";
import type { TPaymentPurpose } from "./purpose.types";
import {
  TOPUP_MAX_YUAN,
  TOPUP_PRESETS_YUAN,
  ZCreateTopupInput,
  type TPaymentOptions,
  type TPaymentOrderView,
  type TPaymentProviderId,
  type TWalletView,
} from "./payments.schema";

/** What the payer sees on the phone or the cashier page. */
const DESCRIPTIONS: Record<TPaymentPurpose, string> = { topup: "Zelin Z币充值", edition: "Zelin 版本购买", registration: "Zelin 付费注册" };

export type TCreatePaymentOrder = {
  accountId: string | null;
  purpose: TPaymentPurpose;
  amountMicro: number;
  provider: string;
  details?: Record<string, unknown>;
  sharerAccountId?: string | null;
};

/**
 * Makes a pending order and asks its provider for what the payer opens. A provider that is not
 * configured, or that refuses, answers payment_provider_unavailable (the order is then failed).
 */
export async function createPaymentOrder(input: TCreatePaymentOrder): Promise<TPaymentOrderView> {
  if (!Number.isSafeInteger(input.amountMicro) || input.amountMicro <= 0 || input.amountMicro % FEN !== 0)
    throw new Error(`payments: amount ${input.amountMicro} is not a whole number of fen`);
  const provider = getProvider(input.provider);
  const settings = getPaymentSettings();
  // The sandbox notifies us from inside this process (sandbox-cashier.service.ts); the others need our public address.
  if (provider.id !== "sandbox" && !settings.notifyBase) {
    logger.error("payments: PAYMENT_NOTIFY_BASE (or PUBLIC_URL) is not set, so providers cannot notify us");
    throw new AppError("payment_provider_unavailable");
  }
  const order = await repo.createOrder({
    accountId: input.accountId,
    purpose: input.purpose,
    provider: provider.id,
    amountMicro: input.amountMicro,
    details: (input.details ?? {}) as object,
    sharerAccountId: input.sharerAccountId ?? null,
  });
  try {
    const description = typeof input.details?.description === "string" ? input.details.description : DESCRIPTIONS[input.purpose];
    const made = await provider.createOrder({
      orderId: order.id,
      amountMicro: input.amountMicro,
      description,
      notifyUrl: `${settings.notifyBase}/api/v1/pay/${provider.id}/notify`,
      returnUrl: settings.alipay?.returnUrl ?? (settings.notifyBase ? `${settings.notifyBase}/setting` : null),
    });
    return toOrderView(await repo.setPayUrl(order.id, made.payUrl));
  } catch (err) {
    await repo.markUnpaid(order.id, "failed", "the provider refused to create the order");
    throw err;
  }
}

/** The whole fen of a valid top-up, or topup_amount_invalid (above 0, at most 6000 yuan). */
export function parseTopupAmount(raw: unknown): number {
  const parsed = ZCreateTopupInput.shape.amount.safeParse(raw);
  const micro = parsed.success ? yuanTextToMicro(parsed.data) : null;
  if (!micro || micro <= 0 || micro > TOPUP_MAX_YUAN * 1_000_000) throw new AppError("topup_amount_invalid");
  return micro;
}

export type TTopupRequest = { amountMicro: number; provider: TPaymentProviderId };

/**
 * POST /v1/pay/topup's body, parsed by the route: refused with the recharge dialog's own codes
 * (topup_amount_invalid, payment_provider_unavailable) rather than a field list.
 */
export function parseTopupRequest(raw: unknown): TTopupRequest {
  const body = (raw ?? {}) as Record<string, unknown>;
  const amountMicro = parseTopupAmount(body.amount);
  const provider = ZCreateTopupInput.shape.provider.safeParse(body.provider);
  if (!provider.success) throw new AppError("payment_provider_unavailable");
  return { amountMicro, provider: provider.data };
}

/** A top-up order with one of the providers this deployment has set up. */
export async function createTopupOrder(account: Pick<TSessionAccount, "id">, { amountMicro, provider }: TTopupRequest): Promise<TPaymentOrderView> {
  if (!listProviders().includes(provider)) throw new AppError("payment_provider_unavailable");
  return createPaymentOrder({ accountId: account.id, purpose: "topup", amountMicro, provider });
}

/** Orders whose provider was last asked at: a poll asks at most every few seconds per order. */
const lastAsked = new Map<string, number>();
const ASK_EVERY_MS = 5_000;

/**
 * The payer's order (another account's answers not_found). While it is pending, a poll also asks
 * the provider now and then, so a lost notification does not leave a paid order waiting.
 */
export async function getOrderForAccount(account: Pick<TSessionAccount, "id">, orderId: string): Promise<TPaymentOrderView> {
  const order = await repo.findOrder(orderId);
  if (!order || order.accountId !== account.id) throw new AppError("not_found");
  if (order.state !== "pending") return toOrderView(order);
  const now = Date.now();
  if (now - order.createdAt.getTime() < ASK_EVERY_MS || now - (lastAsked.get(order.id) ?? 0) < ASK_EVERY_MS) return toOrderView(order);
  lastAsked.set(order.id, now);
  if (lastAsked.size > 10_000) lastAsked.clear();
  try {
    const report = await getProvider(order.provider).queryOrder(order.id);
    if (report.outcome !== "pending") await applyProviderReport(order.provider, report, JSON.stringify({ query: report }));
  } catch (err) {
    logger.warn({ err, orderId: order.id }, "payments: asking the provider failed");
  }
  return toOrderView((await repo.findOrder(orderId))!);
}

/** Any order by id, for the parts that make orders on someone's behalf (paid registration). */
export async function getPaymentOrder(orderId: string): Promise<TPaymentOrderView | null> {
  const order = await repo.findOrder(orderId);
  return order ? toOrderView(order) : null;
}

export function getPaymentOptions(): TPaymentOptions {
  return { providers: listProviders(), presets: [...TOPUP_PRESETS_YUAN], max: TOPUP_MAX_YUAN };
}

export async function getWalletView(account: Pick<TSessionAccount, "id">): Promise<TWalletView> {
  const w = await getWallet(account.id);
  return { spendable: toYuan(w.spendable), gift: toYuan(w.gift), frozen: toYuan(w.frozen), available: toYuan(w.available) };
}
