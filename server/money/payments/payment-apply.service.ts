// What a provider's word does to an order, in one place for notifications, polling queries, the
// stale-order job and the administrator's hand confirmation. A paid order is applied in ONE
// transaction: the conditional state change, the purpose handler and the ledger posting under
// `pay:<orderId>`; whichever notification comes second finds the order no longer open and is
// recorded as a duplicate, so a payment credits once however often it is reported.
import { runTransaction } from "../../db/transaction";
import { AppError, isAppError } from "../../errors/app-error";
import { logger } from "../../lib/logger";
import { platform, post, type TLedgerKind } from "../ledger.service";
import * as repo from "./payment-orders.repository";
import { toPaidOrder } from "./payment-view";
import { getProvider } from "./providers";
import type { TNotifyRequest, THttpAnswer, TProviderReport } from "./providers/provider.types";
import { getPurposeHandler } from "./purposes";

export type TApplied = "applied" | "duplicate" | "unchanged";

/**
 * Order states a paid report may move from. A genuine payment the provider confirms after we gave
 * up on the order (closed as stale, a late notification) is still money received: it is credited.
 */
const PAYABLE_FROM: repo.TOrderState[] = ["pending", "failed", "cancelled"];

/** pending | failed | cancelled → paid, the purpose's legs and the clearing debit, all or nothing. */
export async function applyPaidOrder(
  orderId: string,
  opts: { providerTradeNo: string | null; from?: repo.TOrderState[]; provider: string; body: string },
): Promise<TApplied> {
  return runTransaction(async (tx) => {
    const moved = await repo.markPaid(orderId, opts.from ?? PAYABLE_FROM, { providerTradeNo: opts.providerTradeNo }, tx);
    if (!moved) {
      await repo.recordNotification({ provider: opts.provider, orderId, outcome: "duplicate", body: opts.body }, tx);
      return "duplicate";
    }
    const order = (await repo.findOrder(orderId, tx))!;
    const handler = getPurposeHandler(order.purpose);
    if (!handler) throw new Error(`payments: no handler for purpose ${order.purpose}`);
    const result = await handler(toPaidOrder(order), tx);
    const amount = Number(order.amountMicro);
    await post(
      {
        key: `pay:${order.id}`,
        kind: order.purpose as TLedgerKind,
        accountId: result.accountId,
        memo: { ...result.memo, orderId: order.id, provider: order.provider },
        legs: [{ account: platform("payment_clearing"), amount: -amount }, ...result.legs],
      },
      tx,
    );
    if (!order.accountId) await repo.setOrderAccount(order.id, result.accountId, tx);
    await repo.recordNotification({ provider: opts.provider, orderId, outcome: "applied", body: opts.body }, tx);
    return "applied";
  });
}

/** pending → failed | cancelled; nothing is credited, the payer sees payment_failed. */
export async function applyUnpaidOrder(
  orderId: string,
  state: "failed" | "cancelled",
  reason: string,
  source: { provider: string; body: string },
): Promise<TApplied> {
  return runTransaction(async (tx) => {
    const moved = await repo.markUnpaid(orderId, state, reason, tx);
    await repo.recordNotification({ provider: source.provider, orderId, outcome: moved ? "applied" : "duplicate", body: source.body }, tx);
    return moved ? "applied" : "duplicate";
  });
}

/**
 * A report the provider signed (a notification or a query's answer) applied to its order. Refuses
 * (not_found / payment_signature_invalid) an order that is not this provider's or an amount that is
 * not the order's, and then changes nothing.
 */
export async function applyProviderReport(provider: string, report: TProviderReport, body: string): Promise<TApplied> {
  const order = await repo.findOrder(report.orderId);
  if (!order || order.provider !== provider) {
    await repo.recordNotification({ provider, orderId: null, outcome: "rejected", body });
    throw new AppError("not_found");
  }
  if (report.outcome === "pending") {
    await repo.recordNotification({ provider, orderId: order.id, outcome: "verified", body });
    return "unchanged";
  }
  if (report.outcome === "failed") return applyUnpaidOrder(order.id, "failed", "provider reported the payment failed or closed", { provider, body });
  if (report.amountMicro !== Number(order.amountMicro)) {
    logger.warn(
      { orderId: order.id, provider, reported: report.amountMicro, expected: Number(order.amountMicro) },
      "payments: paid amount does not match the order",
    );
    await repo.recordNotification({ provider, orderId: order.id, outcome: "rejected", body });
    throw new AppError("payment_signature_invalid");
  }
  return applyPaidOrder(order.id, { providerTradeNo: report.providerTradeNo, provider, body });
}

/**
 * A provider's notification, raw: verified, applied, and answered the way the provider expects.
 * A forged or unreadable one is recorded as rejected and changes nothing (the provider, if it was
 * really them, retries).
 */
export async function receiveNotification(providerId: string, req: TNotifyRequest): Promise<{ answer: THttpAnswer; outcome: TApplied | "rejected" }> {
  const provider = getProvider(providerId);
  const body = req.rawBody.toString("utf8");
  let report: TProviderReport;
  try {
    report = provider.parseNotification(req);
  } catch (err) {
    if (!isAppError(err)) throw err;
    // Not known to be any order's: kept for the administrator, tied to none.
    await repo.recordNotification({ provider: provider.id, orderId: null, outcome: "rejected", body });
    logger.warn({ provider: provider.id, code: err.code }, "payments: notification signature refused");
    return { answer: provider.answer(false), outcome: "rejected" };
  }
  try {
    return { answer: provider.answer(true), outcome: await applyProviderReport(provider.id, report, body) };
  } catch (err) {
    if (!isAppError(err)) throw err;
    logger.warn({ provider: provider.id, orderId: report.orderId, code: err.code }, "payments: notification refused");
    return { answer: provider.answer(false), outcome: "rejected" };
  }
}
