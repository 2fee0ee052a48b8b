// How a scheduled message's loop reads: "Once", "Daily at 09:00", "Every Monday at 09:00", "Every
// 6 hours". Daily and weekly times are the owner's clock when it was saved (schedule-time.ts).
import type { TFunction } from "i18next";
import { wallClock } from "../../../server/bots/schedule-time";
import type { TScheduleView } from "./types";

const pad = (n: number) => String(n).padStart(2, "0");

export function loopLabel(s: Pick<TScheduleView, "loop" | "every_hours" | "send_at" | "utc_offset_minutes">, t: TFunction) {
  const clock = wallClock({ sendAt: new Date(s.send_at), utcOffsetMinutes: s.utc_offset_minutes });
  const time = `${pad(clock.hour)}:${pad(clock.minute)}`;
  if (s.loop === "daily") return t("loop_label.daily", { time });
  if (s.loop === "weekly") return t("loop_label.weekly", { time, weekday: t(`weekday.${clock.weekday}`) });
  if (s.loop === "hours") return t("loop_label.hours", { count: s.every_hours ?? 1 });
  return t("loop_label.once");
}

/** A datetime-local input's value ("2026-05-01T09:00") for a moment, in the browser's clock. */
export function toLocalInput(d: Date) {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The next whole hour from now: the form's first suggestion. */
export function nextWholeHour(now = new Date()) {
  const d = new Date(now);
  d.setMinutes(0, 0, 0);
  d.setHours(d.getHours() + 1);
  return d;
}
