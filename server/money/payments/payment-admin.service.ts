// Platform administrators on /admin/payments: every order with its state, its payer and how many
// notifications the provider sent about it. Orders are settled only by their provider's signed
// word (payment-apply.service.ts), the sandbox's included: nothing here changes an order.
import { AppError } from "../../errors/app-error";
import * as repo from "./payment-orders.repository";
import { toOrderView } from "./payment-view";
import type { TAdminPaymentOrder, TAdminPaymentsQuery } from "./payments.schema";

export type TPaymentAdmin = { isPlatformAdmin: boolean; accountId: string | null };
const PAGE_SIZE = 20;

function assertAdmin(admin: TPaymentAdmin) {
  if (!admin.isPlatformAdmin) throw new AppError("no_permission");
}

export async function listPaymentsForAdmin(
  admin: TPaymentAdmin,
  f: TAdminPaymentsQuery,
): Promise<{ items: TAdminPaymentOrder[]; total: number; page: number; page_size: number }> {
  assertAdmin(admin);
  const accountIds = f.q ? (await repo.findAccountIdsByName(f.q)).map((a) => a.id) : undefined;
  const { items, total } = await repo.listOrders({
    state: f.state,
    provider: f.provider,
    purpose: f.purpose,
    id: f.q,
    accountIds,
    skip: (f.page - 1) * PAGE_SIZE,
    take: PAGE_SIZE,
  });
  const ids = items.map((o) => o.id);
  const [names, counts] = await Promise.all([
    repo.findAccountNames(items.map((o) => o.accountId).filter((x): x is string => Boolean(x))),
    repo.countNotifications(ids),
  ]);
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
