// A list that starts from the page the loader rendered and fetches the next one by cursor when the
// reader comes within 100 px of its end, or at once while the list is too short to scroll.
import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "../../lib/api-client";
import { callTrpc } from "../../lib/trpc";
import { SCROLL_LOAD_THRESHOLD_PX, type TPage } from "../../../server/market/market.schema";

export function useScrollPages<T extends { id: string }>(initial: TPage<T>, fetchPage: (cursor: string) => Promise<TPage<T>>) {
  const [items, setItems] = useState(initial.items);
  const [cursor, setCursor] = useState(initial.nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);
  const sentinel = useRef<HTMLDivElement | null>(null);
  const fetcher = useRef(fetchPage);
  fetcher.current = fetchPage;

  // A new first page (another category, sort or query) starts the list over.
  useEffect(() => {
    setItems(initial.items);
    setCursor(initial.nextCursor);
    setError(null);
  }, [initial]);

  const loadMore = useCallback(async () => {
    if (busy.current || !cursor) return;
    busy.current = true;
    setLoading(true);
    try {
      const page = await callTrpc(() => fetcher.current(cursor));
      setItems((prev) => [...prev, ...page.items.filter((i) => !prev.some((p) => p.id === i.id))]);
      setCursor(page.nextCursor);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    } finally {
      busy.current = false;
      setLoading(false);
    }
  }, [cursor]);

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !cursor || error) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore(), {
      rootMargin: `0px 0px ${SCROLL_LOAD_THRESHOLD_PX}px 0px`,
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [cursor, error, loadMore]);

  /** Replaces one item in place (a like changed its count) or removes it (null). */
  const update = useCallback(
    (id: string, next: T | null) => setItems((prev) => (next ? prev.map((i) => (i.id === id ? next : i)) : prev.filter((i) => i.id !== id))),
    [],
  );
  const prepend = useCallback((item: T) => setItems((prev) => [item, ...prev]), []);

  return { items, hasMore: Boolean(cursor), loading, error, sentinel, loadMore, update, prepend };
}
