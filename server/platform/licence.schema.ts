import { z } from "zod";

const ZYmd = z
  .number()
  .int()
  .refine((n) => isValidYmd(n), "must be a date written as YYYYMMDD");

export const ZLicencePayload = z
  .object({
    licensee: z.string().min(1),
    start_time: ZYmd,
    end_time: ZYmd,
    contact_phone: z.string().min(3).optional(),
    issued_at: z.string().optional(),
  })
  .refine((p) => p.start_time <= p.end_time, "start_time must not be after end_time");

export const ZLicenceFile = z.object({ payload: ZLicencePayload, signature: z.string().min(1) });

export type TLicencePayload = z.infer<typeof ZLicencePayload>;
export type TLicenceFile = z.infer<typeof ZLicenceFile>;

/** open: no licence configured; expiring: ends within EXPIRY_WARNING_DAYS; invalid: bad file or signature. */
export type TLicenceState = "open" | "valid" | "expiring" | "expired" | "not_started" | "invalid";

export type TLicenceStatus = {
  state: TLicenceState;
  /** The envelope status: 200, 10001 or 10002. */
  status: 200 | 10001 | 10002;
  start_time: number | null;
  end_time: number | null;
  contact_phone: string;
  days_left: number | null;
};

export const EXPIRY_WARNING_DAYS = 30;

export function isValidYmd(n: number) {
  const y = Math.floor(n / 10000);
  const m = Math.floor((n % 10000) / 100);
  const d = n % 100;
  if (y < 2000 || y > 2200 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Days from a to b, both YYYYMMDD. */
export function daysBetween(a: number, b: number) {
  const toUtc = (n: number) => Date.UTC(Math.floor(n / 10000), Math.floor((n % 10000) / 100) - 1, n % 100);
  return Math.round((toUtc(b) - toUtc(a)) / 86_400_000);
}

const ymdFormats = new Map<string, { format: Intl.DateTimeFormat; minute: number; ymd: number }>();

/** Today as YYYYMMDD in the deployment's time zone. */
export function todayYmd(now: Date, timeZone: string) {
  // Every write asks (the licence guard). Building a formatter costs far more than formatting, and
  // formatting in a time zone still costs a cold request tenths of a millisecond; every zone's day
  // starts on a whole minute, so one answer holds for the rest of its minute.
  const minute = Math.floor(now.getTime() / 60_000);
  let cached = ymdFormats.get(timeZone);
  if (cached?.minute === minute) return cached.ymd;
  const format = cached?.format ?? new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  cached = { format, minute, ymd: Number(format.format(now).replaceAll("-", "")) };
  ymdFormats.set(timeZone, cached);
  return cached.ymd;
}
