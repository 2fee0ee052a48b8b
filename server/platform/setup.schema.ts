// First-run setup input, shared by the /setup form and the server: the one-time code and the first
// platform administrator's account. The administrator's password always follows the strict rule,
// whatever STRICT_PASSWORD says: this account can settle payments and withdrawals.
import { z } from "zod";
import { ZAccountName, ZStrictPassword } from "../accounts/accounts.schema";

/** Digits and capitals that cannot be misread for one another (no 0/O, 1/I/L, U/V pairs). */
export const SETUP_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTWXYZ";
export const SETUP_CODE_LENGTH = 8;

/** What the operator may type: any case, with or without the dash and spaces. */
export function normalizeSetupCode(raw: string) {
  return raw.toUpperCase().replace(/[\s-]/g, "");
}

/** "K7QM4XPA" shown as "K7QM-4XPA". */
export function formatSetupCode(code: string) {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

const CODE_PATTERN = new RegExp(`^[${SETUP_CODE_ALPHABET}]{${SETUP_CODE_LENGTH}}$`);

export const ZSetupCode = z
  .string()
  .max(40, "validation.setup_code")
  .transform(normalizeSetupCode)
  .refine((c) => CODE_PATTERN.test(c), "validation.setup_code");

export const ZSetupInput = z
  .object({
    code: ZSetupCode,
    account: ZAccountName,
    nickname: z.string().trim().max(20, "validation.nickname").optional(),
    password: ZStrictPassword,
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { message: "validation.password_confirm", path: ["confirm"] });

export type TSetupInput = z.infer<typeof ZSetupInput>;
