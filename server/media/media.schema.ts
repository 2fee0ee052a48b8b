// The multimedia library's inputs and outputs (SPEC 2, 3: pictures and videos with names), shared by
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

export type TListMediaInput = z.input<typeof ZListMediaInput>;
export type TRenameMediaInput = z.infer<typeof ZRenameMediaInput>;

/** An item as the browser sees it: never its file key, only the URL it is served at. */
export type TMediaItem = {
  id: string;
  name: string;
  kind: TMediaKind;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  url: string;
  createdAt: string;
};

export type TMediaPage = { items: TMediaItem[]; total: number; page: number; pageSize: number };

/** Today's uploads against the daily allowance; resetAt is the next midnight, China time. */
export type TMediaQuota = { used: number; limit: number; remaining: number; resetAt: string };
