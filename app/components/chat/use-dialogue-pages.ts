// The history's pages of dialogues, newest first, fetched by cursor; the next page loads when the
// reader comes within 100 px of the bottom, or at once while the list is too short to scroll.
import { useCallback, useEffect, useRef, useState } from "react";
import { apiRequest, errorText } from "../../lib/api-client";
import type { TDialogueItem } from "./dialogue-row";

const PAGE = 20;
export const LOAD_MORE_WITHIN_PX = 100;

export function useDialoguePages(agentId: string | null) {
  const [items, setItems] = useState<TDialogueItem[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);
  const generation = useRef(0);

  const loadMore = useCallback(async () => {
    if (busy.current || done) return;
    busy.current = true;
    setLoading(true);
    const mine = generation.current;
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (agentId) query.set("agent_id", agentId);
    if (cursor) query.set("cursor", cursor);
    try {
      const page = await apiRequest<{ items: TDialogueItem[]; next_cursor: string | null }>(`/api/v1/dialogues?${query}`);
      if (mine !== generation.current) return;
      setItems((prev) => [...prev, ...page.items.filter((i) => !prev.some((p) => p.id === i.id))]);
      setCursor(page.next_cursor);
      setDone(!page.next_cursor);
      setError(null);
    } catch (err) {
      if (mine === generation.current) setError(errorText(err));
    } finally {
      busy.current = false;
      if (mine === generation.current) setLoading(false);
    }
  }, [agentId, cursor, done]);

  // A different filter starts over.
  useEffect(() => {
    generation.current++;
    busy.current = false;
    setItems([]);
    setCursor(null);
    setDone(false);
    setError(null);
  }, [agentId]);

  // First page, and further pages while the reader is near the bottom (or nothing scrolls yet).
  useEffect(() => {
    if (done || loading || error) return;
    const nearBottom = () => document.documentElement.scrollHeight - (window.scrollY + window.innerHeight) < LOAD_MORE_WITHIN_PX;
    if (nearBottom()) void loadMore();
    const onScroll = () => nearBottom() && void loadMore();
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("resize", onScroll);
    return () => {
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("resize", onScroll);
    };
  }, [done, loading, error, loadMore, items.length]);

  const update = useCallback((id: string, change: Partial<TDialogueItem>) => setItems((prev) => prev.map((i) => (i.id === id ? { ...i, ...change } : i))), []);
  const remove = useCallback((id: string) => setItems((prev) => prev.filter((i) => i.id !== id)), []);
  return { items, loading, done, error, loadMore, update, remove };
}
