// Edition purchase input, shared by the /upgrade page and the server so both refuse the same input.
import { z } from "zod";
import { EDITION_KEYS, MEMBERSHIP_DAYS } from "../../accounts/editions";

export const SOLD_EDITIONS = EDITION_KEYS.filter((k) => k !== "basic");

export const ZEditionTerm = z.object({
  edition: z.enum(SOLD_EDITIONS as [string, ...string[]], { message: "validation.required" }),
  days: z.coerce.number().refine((d) => (MEMBERSHIP_DAYS as readonly number[]).includes(d), "validation.required"),
});

/** Paid from the balance: request_id is made once per confirm dialog, so a double click buys once. */
export const ZBuyEditionInput = ZEditionTerm.extend({
  request_id: z.string().uuid("validation.required"),
});

/** Paid through a payment order (WeChat Pay, Alipay or the development provider). */
export const ZEditionOrderInput = ZEditionTerm.extend({
  provider: z.string().min(1, "validation.required").max(32),
});

export const ZOrderIdInput = z.object({ order_id: z.string().min(1).max(64) });

export type TEditionTermInput = z.infer<typeof ZEditionTerm>;
export type TBuyEditionInput = z.infer<typeof ZBuyEditionInput>;
export type TEditionOrderInput = z.infer<typeof ZEditionOrderInput>;
