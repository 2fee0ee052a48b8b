// The paid registration fee (registration is paid, or free with an invitation code): REGISTRATION_FEE_YUAN,
// whole fen, above 0, at most 6000 (a payment like a top-up); default 10 yuan. Read once like
// server/env.ts; tests reset it.
import { z } from "zod";
import { FEN, MICRO } from "../money.constants";

const ZFee = z
  .string()
  .trim()
  .regex(/^\d{1,4}(\.\d{1,2})?$/, "must be yuan with at most two decimals")
  .refine((v) => Number(v) > 0 && Number(v) <= 6000, "must be above 0 and at most 6000");

let cached: number | undefined;

export function getRegistrationFeeMicro(): number {
  if (cached !== undefined) return cached;
  const raw = process.env.REGISTRATION_FEE_YUAN;
  const parsed = ZFee.safeParse(raw === undefined || raw === "" ? "10" : raw);
  if (!parsed.success) throw new Error(`Zelin cannot start: REGISTRATION_FEE_YUAN ${parsed.error.issues[0]?.message}`);
  cached = Math.round(Number(parsed.data) * 100) * FEN;
  return cached;
}

export function resetRegistrationSettings() {
  cached = undefined;
}

export const DEFAULT_REGISTRATION_FEE_MICRO = 10 * MICRO;
