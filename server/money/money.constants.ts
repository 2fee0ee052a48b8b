// The prices and limits that money is charged on, in one place. Editions
// (fees, prepaid top-ups, limits, chats per day) live in server/accounts/editions.ts beside this.
// Every amount is integer micro-Z: 1 Z coin = 1 yuan = 1,000,000.
import { MICRO, FREE_TRAINING_CHARS } from "../accounts/editions";

export { MICRO, FREE_TRAINING_CHARS };

/** A fen, the smallest amount a payment provider moves. */
export const FEN = MICRO / 100;

export const PRICES = {
  /** Interaction channel fee, per message answered: 0.003 yuan. */
  chatMessageMicro: 3_000,
  /** Training storage beyond the free million characters: 0.01 yuan per 100 characters per day. */
  storagePer100CharsDayMicro: 10_000,
  /** PPT generation, per deck. */
  pptMicro: 500_000,
  /** Lip-sync, per started 5 seconds. */
  lipSyncPer5sMicro: 500_000,
  /** A workshop run, borne by the workshop's developer. */
  workshopRunMicro: 100_000,
  /** Speech synthesis: 0.024 US dollars per 1000 characters, at the configured exchange rate. */
  speechPer1000CharsUsdMicro: 24_000,
} as const;

/** Platform fee on app and agent sales and on tasks: 10%. */
export const PLATFORM_FEE_PERCENT = 10;
/** The experience bonus every new account gets, as gift credit: 100 Z. */
export const EXPERIENCE_BONUS_MICRO = 100 * MICRO;
/** Custom top-up: above 0, at most 6000 yuan. */
export const TOPUP_MAX_MICRO = 6000 * MICRO;
/** Withdrawal: under 10 yuan refused; arrives in 7 working days. */
export const WITHDRAWAL_MIN_MICRO = 10 * MICRO;
export const WITHDRAWAL_WORKING_DAYS = 7;
/** A trial of an agent lasts 3 days from its first use. */
export const AGENT_TRIAL_DAYS = 3;
/** Duration display: a 365-day year and a 30.4375-day month (365.25 / 12). */
export const DAYS_PER_YEAR = 365;
export const DAYS_PER_MONTH = 30.4375;

/** Speech synthesis of `chars` characters in micro-Z at `usdToCny` yuan per dollar, rounded up to the micro. */
export function speechPriceMicro(chars: number, usdToCny: number): number {
  return Math.ceil((PRICES.speechPer1000CharsUsdMicro * chars * usdToCny) / 1000);
}

/** Lip-sync of `seconds` seconds: each started 5 seconds costs one unit. */
export function lipSyncPriceMicro(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 5)) * PRICES.lipSyncPer5sMicro;
}

/** Storage charge for one day when the account keeps `chars` training characters. */
export function storageDayPriceMicro(chars: number): number {
  const over = Math.max(0, chars - FREE_TRAINING_CHARS);
  return Math.ceil(over / 100) * PRICES.storagePer100CharsDayMicro;
}

/** The split of a sale of `price`, in whole micro-Z: platform fee 10%, the sharer's dividend at the app's share, the rest to the developer. */
export function splitSale(priceMicro: number, sharePercent: number | null): { platform: number; sharer: number; developer: number } {
  const platform = Math.floor((priceMicro * PLATFORM_FEE_PERCENT) / 100);
  const sharer = sharePercent ? Math.floor((priceMicro * sharePercent) / 100) : 0;
  return { platform, sharer, developer: priceMicro - platform - sharer };
}

/** A duration in days as years, months and days for display (DAYS_PER_YEAR, DAYS_PER_MONTH). */
export function splitDuration(days: number): { years: number; months: number; days: number } {
  const years = Math.floor(days / DAYS_PER_YEAR);
  const rest = days - years * DAYS_PER_YEAR;
  const months = Math.floor(rest / DAYS_PER_MONTH);
  return { years, months, days: Math.round(rest - months * DAYS_PER_MONTH) };
}

export const toYuan = (micro: number | bigint) => Number(micro) / MICRO;
/** Yuan as entered (at most 2 decimals shown to payers) to micro-Z, exactly. */
export const yuanToMicro = (yuan: number) => Math.round(yuan * 100) * FEN;
