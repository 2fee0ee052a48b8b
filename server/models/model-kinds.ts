// What a model does, and how the /model page's model-type filter (numbers 2, 4, 5, 6, 13, 14, 15, 16,
// 99) maps onto it. The numbers come from the original client's filter tabs; only their order and
// values are shown there, so the meaning below is our reading of the tab labels:
//   2  → text        chat / general language models
//   4  → image       picture generation
//   5  → video       video generation
//   6  → voice       speech synthesis and recognition
//   13 → reasoning   deep-thinking models (reasoning_content)
//   14 → embedding   vectors for training-set retrieval
//   15 → rerank      re-ordering retrieved passages
//   16 → lipsync, other  lip-sync (a figure made to speak new audio), multimodal and tools that fit no tab above
//   99 → (all)       no filter
export const MODEL_KINDS = ["text", "reasoning", "image", "video", "voice", "embedding", "rerank", "lipsync", "other"] as const;
export type TModelKind = (typeof MODEL_KINDS)[number];

export const MODEL_FILTER_KINDS: Record<number, readonly TModelKind[]> = {
  2: ["text"],
  4: ["image"],
  5: ["video"],
  6: ["voice"],
  13: ["reasoning"],
  14: ["embedding"],
  15: ["rerank"],
  16: ["lipsync", "other"],
  99: MODEL_KINDS,
};

/** The kinds a filter number selects; an unknown number selects nothing rather than everything. */
export function getKindsForFilter(filter: number): readonly TModelKind[] {
  return MODEL_FILTER_KINDS[filter] ?? [];
}

/**
 * Kinds priced per unit of output (Model.unitPriceMicro) rather than per token: a picture, a second
 * of video, 1000 characters of speech.
 */
export const UNIT_PRICED_KINDS = ["image", "video", "voice"] as const satisfies readonly TModelKind[];

export function isUnitPricedKind(kind: string): kind is (typeof UNIT_PRICED_KINDS)[number] {
  return (UNIT_PRICED_KINDS as readonly string[]).includes(kind);
}
