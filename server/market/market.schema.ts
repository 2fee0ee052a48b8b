// The market's inputs (carousel, app categories, comment limits, scroll-loading, page sizes)
// shared by the pages and the server: both refuse the same input with the same message key.
import { z } from "zod";
import { countWords } from "../apps/apps.schema";

export { countWords };

export const MARKET_LANGUAGES = ["zh_hans", "zh_hant", "en", "pt"] as const;
export type TMarketLanguage = (typeof MARKET_LANGUAGES)[number];
export const COMMENT_MAX_WORDS = 500;
export const REPLY_MAX_WORDS = 150;
export const PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;
/** The next page is fetched when the list's end is this close to the viewport's bottom. */
export const SCROLL_LOAD_THRESHOLD_PX = 100;

/** A jump link: http(s) to anywhere, or a path of this site ("/app_store"), never "//host". */
export function isJumpLink(link: string): boolean {
  if (link === "") return true;
  if (/^\/(?!\/)/.test(link)) return !/[\s\\]/.test(link);
  try {
    const u = new URL(link);
    return (u.protocol === "http:" || u.protocol === "https:") && Boolean(u.hostname) && link.startsWith(`${u.protocol}//`);
  } catch {
    return false;
  }
}

/** A carousel picture: one stored by the upload service (/files/...), or an http(s) address. */
export function isImageUrl(url: string): boolean {
  return (/^\/files\/[\w./-]+$/.test(url) && !url.includes("..")) || (/^https?:\/\//.test(url) && isJumpLink(url));
}

const ZName = (max: number) => z.string().trim().max(max, "validation.too_long");

export const ZCategoryNames = z.object({
  zh_hans: ZName(20).min(1, "validation.required"),
  zh_hant: ZName(20).default(""),
  en: ZName(40).default(""),
  pt: ZName(40).default(""),
});
export const ZSortOrder = z
  .number("market:validation.sort_order")
  .int("market:validation.sort_order")
  .min(0, "market:validation.sort_order")
  .max(1_000_000, "market:validation.sort_order");
export const ZCategoryInput = z.object({ names: ZCategoryNames, sortOrder: ZSortOrder });
export const ZUpdateCategoryInput = ZCategoryInput.extend({ id: z.number().int().positive() });
export const ZNumericId = z.object({ id: z.number().int().positive() });

export const ZCarouselInput = z.object({
  name: z.string().trim().min(1, "validation.required").max(50, "validation.too_long"),
  imageUrl: z.string().trim().min(1, "market:validation.carousel_image").max(500, "validation.too_long").refine(isImageUrl, "market:validation.carousel_image"),
  link: z.string().trim().max(500, "validation.too_long").refine(isJumpLink, "market:validation.jump_link").default(""),
  sortOrder: ZSortOrder.default(0),
  enabled: z.boolean().default(true),
});
export const ZUpdateCarouselInput = ZCarouselInput.extend({ id: z.number().int().positive() });

/** The ranking lists, in the order the home page shows them. */
export const RANKING_LISTS = ["engineer_earnings", "popularity", "language_agents", "image_agents"] as const;
export type TRankingList = (typeof RANKING_LISTS)[number];

export const MARKET_SORTS = ["popular", "newest"] as const;
export type TMarketSort = (typeof MARKET_SORTS)[number];
export const ZCursor = z.string().max(200).optional();
export const ZListAppsInput = z.object({
  categoryId: z.number().int().positive().optional(),
  sort: z.enum(MARKET_SORTS).default("popular"),
  cursor: ZCursor,
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
});
export const ZListAgentsInput = z.object({ cursor: ZCursor, limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE) });
export const ZSearchInput = z.object({
  q: z.string().trim().max(100, "validation.too_long"),
  kind: z.enum(["app", "agent"]).default("app"),
  cursor: ZCursor,
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
});
export const ZDeveloperPageInput = z.object({
  id: z.string().min(1).max(40),
  cursor: ZCursor,
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
});

export const TARGET_TYPES = ["app", "agent"] as const;
export type TTargetType = (typeof TARGET_TYPES)[number];
export const ZTarget = z.object({ targetType: z.enum(TARGET_TYPES), targetId: z.string().min(1).max(40) });
export const ZReactionInput = ZTarget.extend({ kind: z.enum(["like", "collect"]) });
export const ZFollowInput = z.object({ accountId: z.string().min(1).max(40) });

export const ZCommentInput = ZTarget.extend({
  parentId: z.string().min(1).max(40).optional(),
  content: z.string().trim().min(1, "market:validation.comment_required").max(5000, "market:validation.comment_too_long"),
}).superRefine((c, ctx) => {
  const max = c.parentId ? REPLY_MAX_WORDS : COMMENT_MAX_WORDS;
  if (countWords(c.content) > max)
    ctx.addIssue({ code: "custom", path: ["content"], message: c.parentId ? "market:validation.reply_too_long" : "market:validation.comment_too_long" });
});
export const ZCommentId = z.object({ id: z.string().min(1).max(40) });
export const ZListCommentsInput = ZTarget.extend({ cursor: ZCursor, limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE) });
export const ZListRepliesInput = z.object({
  parentId: z.string().min(1).max(40),
  cursor: ZCursor,
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
});

export type TCategoryInput = z.infer<typeof ZCategoryInput>;
/** The category form's values as typed (names other than zh_hans may be left out). */
export type TCategoryFormValues = z.input<typeof ZCategoryInput>;
export type TUpdateCategoryInput = z.infer<typeof ZUpdateCategoryInput>;
export type TNumericId = z.infer<typeof ZNumericId>;
export type TCarouselInput = z.infer<typeof ZCarouselInput>;
export type TUpdateCarouselInput = z.infer<typeof ZUpdateCarouselInput>;
export type TListAppsInput = z.infer<typeof ZListAppsInput>;
export type TListAgentsInput = z.infer<typeof ZListAgentsInput>;
export type TSearchInput = z.infer<typeof ZSearchInput>;
export type TDeveloperPageInput = z.infer<typeof ZDeveloperPageInput>;
export type TReactionInput = z.infer<typeof ZReactionInput>;
export type TFollowInput = z.infer<typeof ZFollowInput>;
export type TCommentInput = z.infer<typeof ZCommentInput>;
export type TCommentId = z.infer<typeof ZCommentId>;
export type TListCommentsInput = z.infer<typeof ZListCommentsInput>;
export type TListRepliesInput = z.infer<typeof ZListRepliesInput>;

// --- What the pages receive ---------------------------------------------------------------------

export const ZCategoryView = z.object({ id: z.number(), slug: z.string(), names: z.record(z.enum(MARKET_LANGUAGES), z.string()), sortOrder: z.number() });
export const ZCarouselView = z.object({
  id: z.number(),
  name: z.string(),
  imageUrl: z.string(),
  link: z.string(),
  sortOrder: z.number(),
  enabled: z.boolean(),
});
const ZOwnerView = z.object({ id: z.string(), nickname: z.string(), avatarUrl: z.string().nullable() });
export const ZAppCard = z.object({
  id: z.string(),
  name: z.string(),
  nameEn: z.string(),
  iconUrl: z.string(),
  introduction: z.string(),
  introductionEn: z.string(),
  categoryId: z.number().nullable(),
  tags: z.array(z.string()),
  type: z.string(),
  likeCount: z.number(),
  collectCount: z.number(),
  commentCount: z.number(),
  popularity: z.number(),
  owner: ZOwnerView,
  listedAt: z.string().nullable(),
});
export const ZAgentCard = z.object({
  id: z.string(),
  name: z.string(),
  avatarUrl: z.string().nullable(),
  introduction: z.string(),
  version: z.string(),
  modelKey: z.string(),
  likeCount: z.number(),
  owner: ZOwnerView,
  publishedAt: z.string().nullable(),
});
/** A page of a scroll-loaded list: nextCursor names its last row while more follow. */
export const zPage = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable() });
export const ZAppCardPage = zPage(ZAppCard);
export const ZAgentCardPage = zPage(ZAgentCard);
export const ZSearchResult = z.object({ q: z.string(), kind: z.enum(["app", "agent"]), apps: ZAppCardPage, agents: ZAgentCardPage });
export const ZCommentView = z.object({
  id: z.string(),
  content: z.string(),
  createdAt: z.string(),
  author: ZOwnerView,
  replyCount: z.number(),
  mine: z.boolean(),
});
export const ZCommentPage = zPage(ZCommentView);
export const ZFollowState = z.object({ following: z.boolean(), followers: z.number() });
/** The one reaction changed: liked after a like or its undo, collected after a collect or its undo. */
export const ZReactionState = z.object({ liked: z.boolean().optional(), collected: z.boolean().optional() });
export const ZDeletedComment = z.object({ id: z.string() });
export const ZDeletedNumericId = z.object({ id: z.number() });

export type TCategoryView = z.infer<typeof ZCategoryView>;
export type TCarouselView = z.infer<typeof ZCarouselView>;
export type TAppCard = z.infer<typeof ZAppCard>;
export type TAgentCard = z.infer<typeof ZAgentCard>;
export type TPage<T> = { items: T[]; nextCursor: string | null };
export type TSearchResult = z.infer<typeof ZSearchResult>;
export type TRankingRow = { rank: number; score: number; targetType: string; targetId: string; name: string; avatarUrl: string | null; subtitle: string };
export type TCommentView = z.infer<typeof ZCommentView>;
export type TFollowState = z.infer<typeof ZFollowState>;
export type TReactionState = z.infer<typeof ZReactionState>;
export type TViewerState = { liked: boolean; collected: boolean; following: boolean; isOwner: boolean; signedIn: boolean };
