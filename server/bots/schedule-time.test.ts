import { describe, expect, it } from "vitest";
import { firstRunAtOrAfter, nextRunAfter, wallClock, type TScheduleRule } from "./schedule-time";

const at = (s: string) => new Date(s);
const rule = (r: Partial<TScheduleRule>): TScheduleRule => ({
  sendAt: at("2026-11-21T01:00:00Z"),
  loop: "daily",
  everyHours: null,
  utcOffsetMinutes: 480,
  ...r,
});

describe("schedule times", () => {
  it("a one-off runs at its time, then never", () => {
    const r = rule({ loop: "once" });
    expect(firstRunAtOrAfter(r, at("2026-11-20T00:00:00Z"))).toEqual(r.sendAt);
    expect(firstRunAtOrAfter(r, at("2026-11-21T01:00:01Z"))).toBeNull();
    expect(nextRunAfter(r, r.sendAt, r.sendAt)).toBeNull();
  });

  it("daily keeps the wall-clock time (09:00 China time) and skips missed days without a burst", () => {
    const r = rule({});
    expect(wallClock(r)).toMatchObject({ hour: 9, minute: 0 });
    expect(nextRunAfter(r, r.sendAt, r.sendAt)).toEqual(at("2026-11-22T01:00:00Z"));
    // Down for three days: the late occurrence fires once, the next is tomorrow's, not three more.
    expect(nextRunAfter(r, r.sendAt, at("2026-11-24T05:00:00Z"))).toEqual(at("2026-11-25T01:00:00Z"));
    expect(firstRunAtOrAfter(r, at("2026-11-23T00:59:59Z"))).toEqual(at("2026-11-23T01:00:00Z"));
  });

  it("weekly steps seven days; every N hours counts from the first send", () => {
    expect(nextRunAfter(rule({ loop: "weekly" }), at("2026-11-21T01:00:00Z"), at("2026-11-21T01:00:00Z"))).toEqual(at("2026-11-28T01:00:00Z"));
    const h = rule({ loop: "hours", everyHours: 5 });
    expect(nextRunAfter(h, h.sendAt, h.sendAt)).toEqual(at("2026-11-21T06:00:00Z"));
    expect(firstRunAtOrAfter(h, at("2026-11-21T07:00:00Z"))).toEqual(at("2026-11-21T11:00:00Z"));
  });
});
