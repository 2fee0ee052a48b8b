// What a purpose handler receives and answers (server/money/payments/purposes.ts). Kept apart from
// the registry so handlers in other folders import the types without importing each other.
import type { TTx } from "../../db/transaction";
import type { TLeg } from "../ledger.service";

export type TPaymentPurpose = "topup" | "edition" | "registration";
export const PAYMENT_PURPOSES = ["topup", "edition", "registration"] as const;

/** A payment order being applied as paid, in the transaction that applies it. */
export type TPaidOrder = {
  id: string;
  /** Null for a paid registration: its handler creates the account and answers its id. */
  accountId: string | null;
  purpose: TPaymentPurpose;
  provider: string;
  amountMicro: number;
  details: Record<string, unknown>;
  sharerAccountId: string | null;
};

export type TPurposeResult = {
  /** Whose statement the posting belongs to (also written back on the order when it had none). */
  accountId: string;
  /**
   * The legs receiving the money. The payments service adds the `payment_clearing` debit of the
   * whole amount, so these legs sum to +amountMicro.
   */
  legs: TLeg[];
  /** Extra memo fields for statements (orderId and provider are added by the payments service). */
  memo?: Record<string, unknown>;
};

/**
 * Applies a paid order. Runs inside the transaction that marks the order paid and posts the money:
 * pass `tx` to every read and write; a throw rolls everything back (and the notification is refused,
 * so the provider retries).
 */
export type TPurposeHandler = (order: TPaidOrder, tx: TTx) => Promise<TPurposeResult>;
