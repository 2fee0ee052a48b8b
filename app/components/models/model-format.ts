// How the model pages show numbers: prices in yuan per 1000 tokens (stored as micro-Z, 1 Z = 1
// yuan), context windows in K/M tokens, and the type filter's numbers (MODEL_FILTER_KINDS) as words.
import { MICRO } from "../../../server/accounts/editions";
import { MODEL_FILTER_KINDS, type TModelKind } from "../../../server/models/model-kinds";

/** The type filter tabs in the order the original client shows them, "all" first. */
export const MODEL_FILTERS = [99, 2, 13, 4, 5, 6, 14, 15, 16] as const;

export function getFilterLabelKey(filter: number) {
  return filter === 99 ? "kinds.all" : `kinds.${MODEL_FILTER_KINDS[filter]?.[0] ?? "other"}`;
}

export function isKindInFilter(kind: string, filter: number) {
  return (MODEL_FILTER_KINDS[filter] ?? []).includes(kind as TModelKind);
}

/** 2000 micro-Z → "0.002" for the price form's number input (pages show prices through formatZ). */
export function formatYuan(micro: number) {
  return String(Number((micro / MICRO).toFixed(6)));
}

export function toMicro(yuan: number | null | undefined) {
  return yuan == null ? undefined : Math.round(yuan * MICRO);
}

export function formatTokens(n: number) {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}K`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024}K`;
  return String(n);
}
