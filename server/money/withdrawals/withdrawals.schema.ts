// Withdrawal input and views, shared by the form and the server. Message keys are in
// public/locales/<lng>/errors.json, validation.*. Amounts travel as yuan with at most 2 decimals;
// the server works in micro-Z.
import { z } from "zod";
import { ZPhone } from "../../accounts/accounts.schema";
import { ZIdNumber, ZRealName } from "../../accounts/certification.schema";
import { FEN, MICRO } from "../money.constants";

export const WITHDRAWAL_STATES = ["submitted", "arrived", "abnormal"] as const;
export type TWithdrawalState = (typeof WITHDRAWAL_STATES)[number];

/** Far above any wallet; keeps every amount a safe integer of micro-Z. */
export const WITHDRAWAL_MAX_YUAN = 100_000_000;
const AMOUNT_TEXT = /^\d{1,9}(\.\d{1,2})?$/;

/** "12.3" → 12,300,000 micro-Z, in integers (no floating point between the text and the ledger). */
export function yuanTextToMicro(text: string): number {
  const [whole, frac = ""] = text.split(".");
  return Number(whole) * MICRO + Number(frac.padEnd(2, "0")) * FEN;
}

/** Yuan as typed or sent: a number or text, at most 2 decimals, above 0. Parses to micro-Z. */
export const ZWithdrawalAmount = z
  .union([z.string(), z.number()], { error: "validation.withdrawal_amount" })
  .transform((v) => String(v).trim())
  .refine((v) => AMOUNT_TEXT.test(v) && yuanTextToMicro(v) > 0 && yuanTextToMicro(v) <= WITHDRAWAL_MAX_YUAN * MICRO, "validation.withdrawal_amount")
  .transform(yuanTextToMicro);

/** A client's id for one confirmation (the page makes it once per confirm dialog): a retry withdraws once. */
export const ZRequestId = z
  .string({ error: "validation.required" })
  .trim()
  .regex(/^[\w-]{8,64}$/, "validation.required");

export const ZSubmitWithdrawalInput = z.object({
  real_name: ZRealName,
  id_number: ZIdNumber,
  phone: ZPhone,
  amount: ZWithdrawalAmount,
  request_id: ZRequestId,
});
/** As the service takes it: amount in micro-Z. */
export type TSubmitWithdrawalInput = z.infer<typeof ZSubmitWithdrawalInput>;

export const ZPreviewWithdrawalInput = z.object({ amount: ZWithdrawalAmount });
export type TPreviewWithdrawalInput = z.infer<typeof ZPreviewWithdrawalInput>;

export const ZWithdrawalNote = z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(200, "validation.too_long");

export const ZMarkAbnormalInput = z.object({ note: ZWithdrawalNote });
export type TMarkAbnormalInput = z.infer<typeof ZMarkAbnormalInput>;

export const ZListWithdrawalsInput = z.object({
  state: z.enum(WITHDRAWAL_STATES).optional(),
  cursor: z.string().max(40).optional(),
});
export type TListWithdrawalsInput = z.infer<typeof ZListWithdrawalsInput>;

export const ZStaffMayWithdrawInput = z.object({
  allowed: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]),
});
export type TStaffMayWithdrawInput = z.infer<typeof ZStaffMayWithdrawInput>;

/** What the preview and the confirm dialog show, in yuan (2 decimals). */
export type TWithdrawalPreview = { amount: number; tax: number; received: number };

/** What the withdrawer sees of their own withdrawal: never the full ID number. */
export type TWithdrawalView = TWithdrawalPreview & {
  id: string;
  state: TWithdrawalState;
  real_name: string;
  id_number_hint: string;
  phone: string;
  note: string | null;
  created_at: string;
  reviewed_at: string | null;
};

/** What a platform administrator pays out from: who, and the full ID number for the tax return. */
export type TWithdrawalForReview = TWithdrawalView & { account: string; nickname: string; id_number: string | null };

export type TWithdrawalPage<T> = { items: T[]; next_cursor: string | null };
