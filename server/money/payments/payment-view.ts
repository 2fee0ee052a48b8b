// Order rows as the payer and the administrator see them (never the raw details).
import { toYuan } from "../money.constants";
import type { TOrderRow } from "./payment-orders.repository";
import type { TPaidOrder, TPaymentPurpose } from "./purpose.types";
import type { TPaymentOrderView, TPaymentProviderId } from "./payments.schema";

export function toOrderView(o: TOrderRow): TPaymentOrderView {
  return {
    id: o.id,
    purpose: o.purpose,
    provider: o.provider as TPaymentProviderId,
    amount: toYuan(o.amountMicro),
    state: o.state,
    pay_url: o.state === "pending" ? o.payUrl : null,
    failure: o.state === "failed" || o.state === "cancelled" ? "payment_failed" : null,
    created_at: o.createdAt.toISOString(),
    paid_at: o.paidAt?.toISOString() ?? null,
  };
}

export function toPaidOrder(o: TOrderRow): TPaidOrder {
  return {
    id: o.id,
    accountId: o.accountId,
    purpose: o.purpose as TPaymentPurpose,
    provider: o.provider,
    amountMicro: Number(o.amountMicro),
    details: (o.details ?? {}) as Record<string, unknown>,
    sharerAccountId: o.sharerAccountId,
  };
}
