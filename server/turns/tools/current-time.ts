// The current time plugin: the moment in a time zone the model asks for (the platform's by default).
import { getEnv } from "../../env";

export function currentTime(args: { timezone?: unknown }, now = new Date()) {
  const asked = typeof args.timezone === "string" && args.timezone.trim() ? args.timezone.trim() : getEnv().LICENCE_TIMEZONE;
  let timezone = asked;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: asked });
  } catch {
    timezone = "UTC";
  }
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: timezone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    weekday: "long",
    hour12: false,
  }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return {
    timezone,
    local: `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}:${get("second")}`,
    weekday: get("weekday"),
    iso: now.toISOString(),
  };
}
