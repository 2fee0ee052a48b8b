// Statements (the /income and /consumption pages): the filters both pages and their exports take, the line
// types of each book, and the formatting of amounts in Z. Shared by the pages and the server.
import { z } from "zod";

export const INCOME_TYPES = ["sale_income", "dividend", "refund"] as const;
export const CONSUMPTION_TYPES = [
  "purchase",
  "use_charge",
  "chat_charge",
  "storage",
  "metered",
  "edition",
  "bot_package",
  "withdrawal",
  "withdrawal_return",
  "refund_paid",
] as const;
export const BOOKS = { income: INCOME_TYPES, consumption: CONSUMPTION_TYPES } as const;
export type TBook = keyof typeof BOOKS;
export type TLineType = (typeof INCOME_TYPES)[number] | (typeof CONSUMPTION_TYPES)[number];

const ZDay = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "validation.date");
const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

export const ZStatementFilters = z
  .object({
    type: z.preprocess(blankToUndefined, z.string().max(40).optional()),
    from: z.preprocess(blankToUndefined, ZDay.optional()),
    to: z.preprocess(blankToUndefined, ZDay.optional()),
    app_id: z.preprocess(blankToUndefined, z.string().max(40).optional()),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: "validation.date_range", path: ["to"] });
export type TStatementFilters = z.infer<typeof ZStatementFilters>;

export const ZListStatementInput = z.object({
  filters: ZStatementFilters.optional(),
  cursor: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{1,19}$/)
      .optional(),
  ),
});
export type TListStatementInput = z.infer<typeof ZListStatementInput>;

export type TStatementLine = {
  id: string;
  type: TLineType;
  at: string;
  /** Net change of the user's coins and gift credit, micro-Z (negative: money out). */
  amount_micro: number;
  /** Of which gift credit. */
  gift_micro: number;
  app_id: string | null;
  app_name: string | null;
  agent_name: string | null;
  edition: string | null;
  days: number | null;
  chars: number | null;
  what: string | null;
  withdrawal_state: "submitted" | "arrived" | "abnormal" | null;
};

export type TStatementPage = { items: TStatementLine[]; next_cursor: string | null };

export type TStatementTotals = { today: number; month: number; all: number; withdrawable: number | null };

export { formatZ } from "../money-format";
