// What a paid payment order buys: purpose → handler. Each handler answers whose statement it is and
// the legs receiving the money; the payments service debits payment_clearing by the whole amount
// and posts both under the key `pay:<orderId>` in the transaction that marks the order paid.
// Editions and paid registration add their entries here (server/money/editions/**).
import type { TPaymentPurpose, TPurposeHandler } from "./purpose.types";
import { applyTopup } from "./topup.purpose";
import { applyEditionOrder } from "../editions/edition.purpose";
import { applyRegistrationOrder } from "../editions/registration.purpose";

export type { TPaidOrder, TPaymentPurpose, TPurposeHandler, TPurposeResult } from "./purpose.types";

export const PURPOSES: Partial<Record<TPaymentPurpose, TPurposeHandler>> = {
  topup: applyTopup,
  edition: applyEditionOrder,
  registration: applyRegistrationOrder,
};

export function getPurposeHandler(purpose: string): TPurposeHandler | undefined {
  return PURPOSES[purpose as TPaymentPurpose];
}
