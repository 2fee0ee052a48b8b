// The market's inputs (SPEC 3 Carousel and App category, SPEC 5 comment limits, SPEC 9 scroll-loading)
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
/** SPEC 9: the next page is fetched when the list's end is this close to the viewport's bottom. */
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
export const ZSortOrder = z.number("market:validation.sort_order").int("market:validation.sort_order").min(0, "market:validation.sort_order").max(1_000_000, "market:validation.sort_order");
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

/** SPEC 2's ranking lists, in the order the home page shows them. */
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
export const ZDeveloperPageInput = z.object({ id: z.string().min(1).max(40), cursor: ZCursor, limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE) });

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
  if (countWords(c.content) > max) ctx.addIssue({ code: "custom", path: ["content"], message: c.parentId ? "market:validation.reply_too_long" : "market:validation.comment_too_long" });
});
export const ZCommentId = z.object({ id: z.string().min(1).max(40) });
export const ZListCommentsInput = ZTarget.extend({ cursor: ZCursor, limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE) });
export const ZListRepliesInput = z.object({ parentId: z.string().min(1).max(40), cursor: ZCursor, limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE) });

export type TCategoryInput = z.infer<typeof ZCategoryInput>;
export type TCarouselInput = z.infer<typeof ZCarouselInput>;
export type TListAppsInput = z.infer<typeof ZListAppsInput>;
export type TCommentInput = z.infer<typeof ZCommentInput>;

// --- What the pages receive ---------------------------------------------------------------------

export type TCategoryView = { id: number; slug: string; names: Record<TMarketLanguage, string>; sortOrder: number };
export type TCarouselView = { id: number; name: string; imageUrl: string; link: string; sortOrder: number; enabled: boolean };
export type TAppCard = {
  id: string;
  name: string;
  nameEn: string;
  iconUrl: string;
  introduction: string;
  introductionEn: string;
  categoryId: number | null;
  tags: string[];
  type: string;
  likeCount: number;
  collectCount: number;
  commentCount: number;
  popularity: number;
  owner: { id: string; nickname: string; avatarUrl: string | null };
  listedAt: string | null;
};
export type TAgentCard = {
  id: string;
  name: string;
  avatarUrl: string | null;
  introduction: string;
  version: string;
  modelKey: string;
  likeCount: number;
  owner: { id: string; nickname: string; avatarUrl: string | null };
  publishedAt: string | null;
};
export type TPage<T> = { items: T[]; nextCursor: string | null };
export type TRankingRow = { rank: number; score: number; targetType: string; targetId: string; name: string; avatarUrl: string | null; subtitle: string };
export type TCommentView = {
  id: string;
  content: string;
  createdAt: string;
  author: { id: string; nickname: string; avatarUrl: string | null };
  replyCount: number;
  mine: boolean;
};
export type TViewerState = { liked: boolean; collected: boolean; following: boolean; isOwner: boolean; signedIn: boolean };
