// Platform administrators on /admin/payments: every order with its state, and the development
// provider's hand confirmation (no real money: only orders made with the "dev" provider).
import { AppError } from "../../errors/app-error";
import * as repo from "./payment-orders.repository";
import { applyPaidOrder, applyUnpaidOrder } from "./payment-apply.service";
import { toOrderView } from "./payment-view";
import { ZAdminPaymentsQuery, ZFailPaymentInput, type TAdminPaymentOrder, type TPaymentOrderView } from "./payments.schema";

export type TPaymentAdmin = { isPlatformAdmin: boolean; accountId: string | null };
const PAGE_SIZE = 20;

function assertAdmin(admin: TPaymentAdmin) {
  if (!admin.isPlatformAdmin) throw new AppError("no_permission");
}

export async function listPaymentsForAdmin(admin: TPaymentAdmin, raw: unknown): Promise<{ items: TAdminPaymentOrder[]; total: number; page: number; page_size: number }> {
  assertAdmin(admin);
  const f = ZAdminPaymentsQuery.parse(raw ?? {});
  const accountIds = f.q ? (await repo.findAccountIdsByName(f.q)).map((a) => a.id) : undefined;
  const { items, total } = await repo.listOrders({ state: f.state, provider: f.provider, purpose: f.purpose, id: f.q, accountIds, skip: (f.page - 1) * PAGE_SIZE, take: PAGE_SIZE });
  const ids = items.map((o) => o.id);
  const [names, counts] = await Promise.all([repo.findAccountNames(items.map((o) => o.accountId).filter((x): x is string => Boolean(x))), repo.countNotifications(ids)]);
  const nameOf = new Map(names.map((n) => [n.id, n.account]));
  const countOf = new Map(counts.map((c) => [c.orderId, c._count._all]));
  return {
    items: items.map((o) => ({
      ...toOrderView(o),
      account_id: o.accountId,
      account_name: o.accountId ? (nameOf.get(o.accountId) ?? null) : null,
      provider_trade_no: o.providerTradeNo,
      failure_reason: o.failureReason,
      notifications: countOf.get(o.id) ?? 0,
    })),
    total,
    page: f.page,
    page_size: PAGE_SIZE,
  };
}

/**
 * A development order still open to `to`, or null when it is already there (the same decision
 * again, a double click: it answers the order as the first one left it). Anything else, and every
 * real provider's order (settled by the provider's signed word only), is payment_order_state.
 */
async function devOrderOpenTo(id: string, to: "paid" | "failed") {
  const order = await repo.findOrder(id);
  if (!order) throw new AppError("not_found");
  if (order.provider !== "dev") throw new AppError("payment_order_state");
  if (order.state === to) return null;
  if (order.state !== "pending") throw new AppError("payment_order_state");
  return order;
}

/** The order as the decision left it: a copy that lost the race to the same decision answers what the first one did. */
async function decidedOrder(id: string, to: "paid" | "failed"): Promise<TPaymentOrderView> {
  const order = (await repo.findOrder(id))!;
  if (order.state !== to) throw new AppError("payment_order_state");
  return toOrderView(order);
}

/** The administrator says the development payment arrived: credited exactly as a real one, once. */
export async function confirmDevPayment(admin: TPaymentAdmin, id: string): Promise<TPaymentOrderView> {
  assertAdmin(admin);
  const order = await devOrderOpenTo(id, "paid");
  if (order) await applyPaidOrder(order.id, { providerTradeNo: `dev-${order.id}`, from: ["pending"], provider: "dev", body: JSON.stringify({ confirmedBy: admin.accountId ?? "admin-token" }) });
  return decidedOrder(id, "paid");
}

/** The administrator says the development payment failed: nothing is credited. */
export async function failDevPayment(admin: TPaymentAdmin, id: string, raw: unknown): Promise<TPaymentOrderView> {
  assertAdmin(admin);
  const { reason } = ZFailPaymentInput.parse(raw ?? {});
  const order = await devOrderOpenTo(id, "failed");
  if (order) await applyUnpaidOrder(order.id, "failed", reason || "failed by an administrator", { provider: "dev", body: JSON.stringify({ failedBy: admin.accountId ?? "admin-token" }) });
  return decidedOrder(id, "failed");
}
