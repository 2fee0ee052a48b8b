// The multimedia library's inputs and outputs (pictures and videos with names), shared by
// tRPC, the upload route and the pages. No server imports: the browser uses this file too.
import { z } from "zod";

export const MEDIA_KINDS = ["image", "video"] as const;
export type TMediaKind = (typeof MEDIA_KINDS)[number];
export const MEDIA_NAME_MAX = 64;
export const MEDIA_PAGE_SIZES = [12, 24, 48] as const;

export const ZMediaKind = z.enum(MEDIA_KINDS);
export const ZMediaName = z.string().trim().min(1, "validation.required").max(MEDIA_NAME_MAX, "validation.too_long");

export const ZMediaId = z.object({ id: z.string().min(1).max(64) });
export const ZListMediaInput = z.object({
  kind: ZMediaKind.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(60).default(24),
});
export const ZRenameMediaInput = ZMediaId.extend({ name: ZMediaName });
/** The upload's text fields: a name is optional (the file's own name is used without it). */
export const ZUploadMediaFields = z.object({ name: z.string().optional() });

export type TMediaIdInput = z.infer<typeof ZMediaId>;
export type TListMediaInput = z.infer<typeof ZListMediaInput>;
export type TRenameMediaInput = z.infer<typeof ZRenameMediaInput>;

/** An item as the browser sees it: never its file key, only the URL it is served at. */
export const ZMediaItem = z.object({
  id: z.string(),
  name: z.string(),
  kind: ZMediaKind,
  mime: z.string(),
  size: z.number(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  url: z.string(),
  /** What the worker made from the file (media-derive.service.ts); null until then, and the page shows `url`. */
  thumbUrl: z.string().nullish(),
  posterUrl: z.string().nullish(),
  playUrl: z.string().nullish(),
  durationMs: z.number().nullish(),
  createdAt: z.string(),
});
export const ZMediaPage = z.object({ items: z.array(ZMediaItem), total: z.number(), page: z.number(), pageSize: z.number() });
/** Today's uploads against the daily allowance; resetAt is the next midnight, China time. */
export const ZMediaQuota = z.object({ used: z.number(), limit: z.number(), remaining: z.number(), resetAt: z.string() });
export const ZDeletedMedia = z.object({ id: z.string() });

export type TMediaItem = z.infer<typeof ZMediaItem>;
export type TMediaPage = z.infer<typeof ZMediaPage>;
export type TMediaQuota = z.infer<typeof ZMediaQuota>;
