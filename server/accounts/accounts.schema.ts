// Account and auth input, shared by the forms and the server: the same rules refuse
// the same input with the same message key (public/locales/<lng>/errors.json, validation.*).
import { z } from "zod";

export const ZAccountName = z
  .string()
  .trim()
  .min(5, "validation.account_length")
  .max(18, "validation.account_length")
  .regex(/^[A-Za-z0-9_]+$/, "validation.account_chars");

export const ZPassword = z.string().min(6, "validation.password_length").max(64, "validation.password_length");

/** The strict rule, where a deployment or enterprise turns it on. */
export const ZStrictPassword = z
  .string()
  .min(10, "validation.password_strict")
  .max(16, "validation.password_strict")
  .refine((p) => /[a-z]/.test(p) && /[A-Z]/.test(p) && /\d/.test(p) && /[^A-Za-z0-9]/.test(p), "validation.password_strict");

export const ZPhone = z
  .string()
  .trim()
  .transform((p) => p.replace(/^\+?86[-\s]?/, "").replace(/[\s-]/g, ""))
  .refine((p) => /^1[3-9]\d{9}$/.test(p), "validation.phone");

export const ZSmsCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "validation.sms_code");

const ZAgreed = z.union([z.literal(true), z.literal("true"), z.literal("1"), z.literal("on")], { message: "validation.agreement" });

export function passwordSchema(strict: boolean) {
  return strict ? ZStrictPassword : ZPassword;
}

export function registerSchema(strict: boolean) {
  return z
    .object({
      account: ZAccountName,
      password: passwordSchema(strict),
      confirm: z.string(),
      invitation_code: z.string().trim().max(64).optional(),
      agreed: ZAgreed,
    })
    .refine((v) => v.password === v.confirm, { message: "validation.password_confirm", path: ["confirm"] });
}

export const ZLoginPasswordInput = z.object({
  account: z.string().trim().min(1, "validation.required").max(64),
  password: z.string().min(1, "validation.required").max(64),
  agreed: ZAgreed,
});

export const ZSendSmsInput = z.object({ phone: ZPhone, purpose: z.enum(["login", "register", "reset_password", "bind_phone"]) });

export const ZLoginSmsInput = z.object({ phone: ZPhone, code: ZSmsCode, agreed: ZAgreed });

/** Binding a phone, or replacing the bound one (then `password`, the account's current one, is required). */
export const ZBindPhoneInput = z.object({ phone: ZPhone, code: ZSmsCode, password: z.string().max(64).optional() });
export type TBindPhoneInput = z.infer<typeof ZBindPhoneInput>;

export function resetPasswordSchema(strict: boolean) {
  return z
    .object({ phone: ZPhone, code: ZSmsCode, password: passwordSchema(strict), confirm: z.string() })
    .refine((v) => v.password === v.confirm, { message: "validation.password_confirm", path: ["confirm"] });
}

export function changePasswordSchema(strict: boolean) {
  return z
    .object({ current: z.string().min(1, "validation.required"), password: passwordSchema(strict), confirm: z.string() })
    .refine((v) => v.password === v.confirm, { message: "validation.password_confirm", path: ["confirm"] });
}

export type TRegisterInput = z.infer<ReturnType<typeof registerSchema>>;
export type TLoginPasswordInput = z.infer<typeof ZLoginPasswordInput>;
export type TLoginSmsInput = z.infer<typeof ZLoginSmsInput>;
export type TSendSmsInput = z.infer<typeof ZSendSmsInput>;
export type TResetPasswordInput = z.infer<ReturnType<typeof resetPasswordSchema>>;
export type TChangePasswordInput = z.infer<ReturnType<typeof changePasswordSchema>>;

/** A paid registration's order also names how it is paid; an unknown provider is refused by the service. */
export const ZRegistrationPayment = z.object({ provider: z.string().catch("") });
/** The page that made a paid registration signs in with the order and its claim; anything else answers not found. */
export const ZCompleteRegistrationInput = z.object({ order_id: z.string().catch(""), claim: z.string().catch("") });
export type TCompleteRegistrationInput = z.infer<typeof ZCompleteRegistrationInput>;

/** What the browser may know about the signed-in account. */
export type TSessionAccount = {
  id: string;
  account: string;
  nickname: string;
  avatarUrl: string | null;
  phone: string | null;
  roles: string[];
  edition: string;
  editionExpiresAt: string | null;
  enterpriseId: string | null;
  language: string;
};

/** Who acts in a service call: the fields ownership and role checks read. */
export type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;

/** The same account as the database gives it (before dates become text). */
export type TSessionAccountRow = Omit<TSessionAccount, "editionExpiresAt"> & { editionExpiresAt: Date | null };
