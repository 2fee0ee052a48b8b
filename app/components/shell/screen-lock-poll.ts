// The screen-lock poll, apart from the overlay that shows it: every page polls, but the
// overlay's antd code is loaded only while a lock is on.
import { useEffect, useState } from "react";
import { apiRequest } from "../../lib/api-client";

export type TScreenLock = { screen_control: 0 | 1; items: { img_name: string; img_url: string; screen_control: 0 | 1 }[] };
export const SCREEN_LOCK_POLL_MS = 3000;

export function useScreenLock() {
  const [lock, setLock] = useState<TScreenLock | null>(null);
  useEffect(() => {
    let stopped = false;
    const poll = async () => {
      if (document.visibilityState !== "hidden") {
        const next = await apiRequest<TScreenLock>("/api/v1/system/screen_lock").catch(() => null);
        if (!stopped && next) setLock(next);
      }
    };
    void poll();
    const timer = setInterval(poll, SCREEN_LOCK_POLL_MS);
    const onVisible = () => document.visibilityState === "visible" && void poll();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);
  return lock;
}
