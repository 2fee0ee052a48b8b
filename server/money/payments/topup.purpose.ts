// A top-up: the whole amount paid lands in the payer's spendable coins.
import { AppError } from "../../errors/app-error";
import { wallet } from "../ledger.service";
import type { TPurposeHandler } from "./purpose.types";

export const applyTopup: TPurposeHandler = async (order) => {
  // A top-up order is always made by a signed-in account (createPaymentOrder refuses otherwise).
  if (!order.accountId) throw new AppError("payment_order_state");
  return { accountId: order.accountId, legs: [{ account: wallet("spendable", order.accountId), amount: order.amountMicro }] };
};
