// The Remix server bundle and the Express server can each load a copy of a module; keeping
// process-wide resources on globalThis makes both copies share one pool, one queue, one logger.
export function singleton<T>(name: string, create: () => T): T {
  const store = globalThis as unknown as { __zelin?: Map<string, unknown> };
  store.__zelin ??= new Map();
  if (!store.__zelin.has(name)) store.__zelin.set(name, create());
  return store.__zelin.get(name) as T;
}

export function dropSingleton(name: string) {
  const store = globalThis as unknown as { __zelin?: Map<string, unknown> };
  store.__zelin?.delete(name);
}
