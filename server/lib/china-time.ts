// Days and times as people in China read them. China has kept one offset all year since 1991
// (UTC+8, no daylight saving): a day starts at 16:00 UTC the day before.
export const CHINA_OFFSET_MS = 8 * 3_600_000;

/** China time, as the data pages and exported sheets show it: "2026-11-20 09:30:00". */
export function formatChinaTime(at: Date) {
  return new Date(at.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace("T", " ");
}
