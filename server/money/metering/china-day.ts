// Money's days are China days (UTC+8, no daylight saving): the chats of a day, the storage charged
// for a day. YYYYMMDD as a number, as AppUse.day and the storage key carry it.
const CHINA_OFFSET_MS = 8 * 3600_000;
const DAY_MS = 86_400_000;

/** YYYYMMDD of the China day that contains `at`. */
export function chinaDayOf(at: Date): number {
  const d = new Date(at.getTime() + CHINA_OFFSET_MS);
  return d.getUTCFullYear() * 10_000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** The instant the China day containing `at` began. */
export function chinaDayStart(at: Date): Date {
  const shifted = at.getTime() + CHINA_OFFSET_MS;
  return new Date(shifted - (((shifted % DAY_MS) + DAY_MS) % DAY_MS) - CHINA_OFFSET_MS);
}

/** The China day before the one containing `at`. */
export function chinaYesterday(at: Date): number {
  return chinaDayOf(new Date(chinaDayStart(at).getTime() - 1));
}

/** A YYYYMMDD number that names a real calendar day. */
export function isChinaDay(day: number): boolean {
  if (!Number.isInteger(day) || day < 2000_01_01 || day > 2999_12_31) return false;
  const y = Math.floor(day / 10_000);
  const m = Math.floor(day / 100) % 100;
  const d = day % 100;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
