// Payments on the wire, shared by the recharge dialog, /admin/payments and the server (no server
// imports here). Amounts travel in yuan; the server keeps micro-Z.
import { z } from "zod";

export const TOPUP_MAX_YUAN = 6000;
export const TOPUP_PRESETS_YUAN = [10, 50, 100, 200, 500, 1000] as const;
export const PAYMENT_PROVIDERS = ["wechat", "alipay", "sandbox"] as const;
export const PAYMENT_STATES = ["pending", "paid", "failed", "cancelled"] as const;
export type TPaymentProviderId = (typeof PAYMENT_PROVIDERS)[number];
export type TPaymentState = (typeof PAYMENT_STATES)[number];

/** A top-up amount in yuan: above 0, at most 6000, whole fen (two decimals at most). */
export const ZTopupAmount = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === "number" ? String(v) : v.trim()))
  .refine((v) => /^\d{1,4}(\.\d{1,2})?$/.test(v) && Number(v) > 0 && Number(v) <= TOPUP_MAX_YUAN, { message: "topup_amount_invalid" });

export const ZCreateTopupInput = z.object({
  amount: ZTopupAmount,
  provider: z.enum(PAYMENT_PROVIDERS, { message: "payment_provider_unavailable" }),
});
export type TCreateTopupInput = z.input<typeof ZCreateTopupInput>;

export const ZAdminPaymentsQuery = z.object({
  state: z.enum(PAYMENT_STATES).optional().catch(undefined),
  provider: z.enum(PAYMENT_PROVIDERS).optional().catch(undefined),
  purpose: z.enum(["topup", "edition", "registration"]).optional().catch(undefined),
  /** An order id or an account name. */
  q: z.string().trim().max(64).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).default(1).catch(1),
});
export type TAdminPaymentsQuery = z.infer<typeof ZAdminPaymentsQuery>;

/** An order as its payer sees it (the recharge dialog polls this). */
export type TPaymentOrderView = {
  id: string;
  purpose: string;
  provider: TPaymentProviderId;
  /** Yuan. */
  amount: number;
  state: TPaymentState;
  /** WeChat's code_url (shown as a QR code), Alipay's cashier URL, or the sandbox's cashier page (a path on this site). */
  pay_url: string | null;
  /** "payment_failed" (errors namespace: "payment failed or cancelled") when it did not go through. */
  failure: "payment_failed" | null;
  created_at: string;
  paid_at: string | null;
};

export type TAdminPaymentOrder = TPaymentOrderView & {
  account_id: string | null;
  account_name: string | null;
  provider_trade_no: string | null;
  failure_reason: string | null;
  notifications: number;
};

export type TPaymentOptions = { providers: TPaymentProviderId[]; presets: number[]; max: number };

/** Yuan balances of the signed-in wallet (spendable coins, gift credit, frozen withdrawals). */
export type TWalletView = { spendable: number; gift: number; frozen: number; available: number };
