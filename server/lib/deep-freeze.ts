// A value shared by every reader of a cache (a parsed agent configuration, read by each chat turn):
// frozen all the way down, so a reader that tried to change it would throw instead of changing it
// for everyone, and readers need no copy of their own.
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
