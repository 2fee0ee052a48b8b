// The sandbox's cashier page (/cashier): the payer sees the order and pays or cancels it. Paying
// records the outcome in the sandbox's books, then the sandbox posts its signed notification to our
// notify route, the one WeChat Pay and Alipay use, so the order is applied by the same code as a
// real payment. Only the order's payer may look or act: its signed-in account, or for a paid
// registration (no account yet) the page holding the order's claim; anyone else gets not_found.
import { AppError } from "../../errors/app-error";
import { logger } from "../../lib/logger";
import { sha256 } from "../../lib/secret-box";
import { toYuan } from "../money.constants";
import * as repo from "./payment-orders.repository";
import { applyProviderReport } from "./payment-apply.service";
import { getProvider } from "./providers";
import { decideTrade, readTrade, type TSandboxStatus } from "./providers/sandbox-trades";
import { buildSandboxNotification } from "./providers/sandbox.provider";
import type { TPaymentState } from "./payments.schema";

export type TCashierPayer = { accountId: string | null; claim: string | null };
/** What the order buys, for the page to name it in the payer's language. */
export type TCashierItem = { edition: string | null; days: number | null; account: string | null };
export type TCashierOrderView = { id: string; purpose: string; amount: number; state: TPaymentState; created_at: string; item: TCashierItem };
/** Posts a signed notification to our notify route; the transport layer knows where that is. */
export type TDeliverNotification = (note: { body: string; headers: Record<string, string> }) => Promise<void>;

const NOTIFY_TIMEOUT_MS = 10_000;

function isPayer(order: repo.TOrderRow, payer: TCashierPayer) {
  if (order.accountId && order.accountId === payer.accountId) return true;
  const claimHash = (order.details as { claimHash?: unknown } | null)?.claimHash;
  return (
    order.purpose === "registration" &&
    typeof payer.claim === "string" &&
    payer.claim.length > 0 &&
    typeof claimHash === "string" &&
    claimHash === sha256(payer.claim)
  );
}

async function findPayersOrder(payer: TCashierPayer, orderId: string | null) {
  const order = orderId && orderId.length > 0 && orderId.length <= 64 ? await repo.findOrder(orderId) : null;
  if (!order || order.provider !== "sandbox" || !isPayer(order, payer)) throw new AppError("not_found");
  return order;
}

function toCashierView(o: repo.TOrderRow): TCashierOrderView {
  const d = (o.details ?? {}) as Record<string, unknown>;
  return {
    id: o.id,
    purpose: o.purpose,
    amount: toYuan(o.amountMicro),
    state: o.state,
    created_at: o.createdAt.toISOString(),
    item: {
      edition: typeof d.edition === "string" ? d.edition : null,
      days: typeof d.days === "number" ? d.days : null,
      account: typeof d.account === "string" ? d.account : null,
    },
  };
}

export async function getCashierOrder(payer: TCashierPayer, orderId: string | null): Promise<TCashierOrderView> {
  return toCashierView(await findPayersOrder(payer, orderId));
}

/** Posts to our notify route as the sandbox; a failure is logged and left to the query below. */
export function deliverTo(url: string): TDeliverNotification {
  return async (note) => {
    try {
      const res = await fetch(url, { method: "POST", headers: note.headers, body: note.body, signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS) });
      if (!res.ok) logger.warn({ url, status: res.status }, "sandbox: our notify route refused the notification");
    } catch (err) {
      logger.warn({ err, url }, "sandbox: the notification could not be delivered");
    }
  };
}

/**
 * The payer's decision: recorded in the sandbox's books (the first one stands), notified, and the
 * order read back. A notification that did not arrive is made up for by asking the provider, as
 * the payer's polling would a few seconds later.
 */
async function decide(payer: TCashierPayer, orderId: string | null, status: TSandboxStatus, deliver: TDeliverNotification): Promise<TCashierOrderView> {
  const order = await findPayersOrder(payer, orderId);
  const provider = getProvider("sandbox");
  const settled = status === "SUCCESS" ? order.state === "paid" : order.state === "failed" || order.state === "cancelled";
  if (settled) return toCashierView(order);
  // Closed here (by the payer, or as stale) or paid: no other outcome may follow.
  if (order.state !== "pending") throw new AppError("payment_order_state");
  const trade = await readTrade(order.id);
  if (!trade) throw new AppError("payment_order_state");
  const result = await decideTrade(order.id, status);
  if (result.status !== status) throw new AppError("payment_order_state");
  await deliver(buildSandboxNotification(order.id, trade.amount_fen, result));
  if ((await repo.findOrder(order.id))?.state === "pending") {
    const report = await provider.queryOrder(order.id);
    if (report.outcome !== "pending") await applyProviderReport(provider.id, report, JSON.stringify({ query: report }));
  }
  return toCashierView((await repo.findOrder(order.id))!);
}

/** "Pay": the sandbox takes the (pretend) money; the order is credited through the notify route. */
export function payInSandbox(payer: TCashierPayer, orderId: string | null, deliver: TDeliverNotification) {
  return decide(payer, orderId, "SUCCESS", deliver);
}

/** "Cancel": the sandbox closes the trade, so nothing can be paid on it afterwards. */
export function cancelInSandbox(payer: TCashierPayer, orderId: string | null, deliver: TDeliverNotification) {
  return decide(payer, orderId, "CLOSED", deliver);
}
