// A list a page loads when it opens, again on demand (after a change), and every `poll.everyMs`
// while any item is still on its way (a check, a render): the last good list stays shown when a
// reload is refused, with the refusal beside it.
import { useCallback, useEffect, useState } from "react";
import { errorText } from "./api-client";

/** `fetchList` must keep its identity across renders (a module's function): each new one reloads. */
export function useLoadedList<T>(fetchList: () => Promise<T[]>, poll?: { while: (item: T) => boolean; everyMs: number }) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setItems(await fetchList());
      setError(null);
    } catch (err) {
      setError(errorText(err));
      setItems((current) => current ?? []);
    }
  }, [fetchList]);
  useEffect(() => void load(), [load]);
  const moving = (poll && items?.some(poll.while)) ?? false;
  const everyMs = poll?.everyMs ?? 0;
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(() => void load(), everyMs);
    return () => clearInterval(timer);
  }, [moving, everyMs, load]);
  return { items, error, load };
}
