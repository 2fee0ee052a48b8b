import { useEffect, useRef } from "react";

/** Calls `fn` every `ms` while `active` (a set is training): states and progress move by themselves. */
export function usePolling(active: boolean, fn: () => Promise<unknown>, ms = 2000) {
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void latest.current().catch(() => {}), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
}
