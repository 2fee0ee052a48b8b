// A per-process reading of something that changes rarely and sits on a hot path (the chat turn's
// model, routing and sensitive words). A reading is served while younger than maxAgeMs; keys read in
// the last idleMs are re-read in the background twice per maxAgeMs, so a warm key never waits for
// the database and is never older than maxAgeMs. Only a cold key (or a failing database) waits.
export type TRefreshingCache<V> = { get(key: string): Promise<V>; set(key: string, value: V): void };

export function createRefreshingCache<V>(opts: {
  maxAgeMs: number;
  idleMs?: number;
  maxEntries?: number;
  load: (key: string) => Promise<V>;
}): TRefreshingCache<V> {
  const idleMs = opts.idleMs ?? 60_000;
  const maxEntries = opts.maxEntries ?? 1000;
  const entries = new Map<string, { at: number; usedAt: number; value: V }>();
  const pending = new Map<string, Promise<V>>();
  let timer: NodeJS.Timeout | undefined;

  function put(key: string, value: V, at: number) {
    // A reading started before a newer one (or before a local change) is dropped.
    if ((entries.get(key)?.at ?? -Infinity) > at) return;
    const usedAt = entries.get(key)?.usedAt ?? at;
    if (!entries.has(key) && entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
    entries.set(key, { at, usedAt, value });
  }

  function load(key: string) {
    let p = pending.get(key);
    if (!p) {
      const startedAt = performance.now();
      p = opts.load(key).then((value) => {
        put(key, value, startedAt);
        return value;
      });
      p.finally(() => pending.delete(key)).catch(() => undefined);
      pending.set(key, p);
    }
    return p;
  }

  function refresh() {
    const now = performance.now();
    for (const [key, e] of entries) {
      if (now - e.usedAt > idleMs) entries.delete(key);
      // A failed refresh keeps the old reading until it is too old to serve.
      else load(key).catch(() => undefined);
    }
    if (entries.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  return {
    async get(key) {
      const now = performance.now();
      const hit = entries.get(key);
      if (hit && now - hit.at < opts.maxAgeMs) {
        hit.usedAt = now;
        return hit.value;
      }
      const value = await load(key);
      const e = entries.get(key);
      if (e) e.usedAt = now;
      timer ??= setInterval(refresh, Math.max(10, opts.maxAgeMs / 2)).unref();
      return value;
    },
    /** A change made by this process: served at once, without waiting for a refresh. */
    set(key, value) {
      put(key, value, performance.now());
    },
  };
}
