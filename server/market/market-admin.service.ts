// Administrators manage the market's categories (names per language, a unique sort order) and its
// carousel (name, image, jump link). Every page of the market reads both: they are kept in a
// per-process cache re-read every few seconds, so the pages' loaders spend no query on them.
import crypto from "node:crypto";
import type { TSessionAccount } from "../accounts/accounts.schema";
import { assertRole } from "../accounts/access";
import { isUniqueViolation } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { createRefreshingCache } from "../lib/refreshing-cache";
import * as repo from "./market-admin.repository";
import {
  MARKET_LANGUAGES,
  type TCarouselInput,
  type TCarouselView,
  type TCategoryInput,
  type TCategoryView,
  type TMarketLanguage,
  type TNumericId,
  type TUpdateCarouselInput,
  type TUpdateCategoryInput,
} from "./market.schema";

type TActor = Pick<TSessionAccount, "id" | "roles">;
type THeader = { categories: TCategoryView[]; carousel: TCarouselView[] };

const HEADER_KEY = "market-header";
const header = createRefreshingCache<THeader>({ maxAgeMs: 5_000, idleMs: 10 * 60_000, load: () => loadHeader() });

function toCategoryView(row: { id: number; slug: string; names: unknown; sortOrder: number }): TCategoryView {
  const raw = (row.names ?? {}) as Partial<Record<TMarketLanguage, string>>;
  const names = Object.fromEntries(MARKET_LANGUAGES.map((l) => [l, raw[l] || raw.zh_hans || raw.en || row.slug])) as Record<TMarketLanguage, string>;
  return { id: row.id, slug: row.slug, names, sortOrder: row.sortOrder };
}

async function loadHeader(): Promise<THeader> {
  const [categories, carousel] = await Promise.all([repo.listCategories(), repo.listCarousel({ enabledOnly: true })]);
  return { categories: categories.map(toCategoryView), carousel };
}

/** Categories in order and the enabled carousel slides, as every market page shows them. */
export function getMarketHeader(): Promise<THeader> {
  return header.get(HEADER_KEY);
}

async function refreshHeader() {
  header.set(HEADER_KEY, await loadHeader());
}

// --- Categories ---------------------------------------------------------------------------------

export async function listCategoriesForAdmin(actor: TActor) {
  assertRole(actor, "platform_admin");
  return (await repo.listCategories()).map(toCategoryView);
}

/** A category's sort order must be unique: a taken one is refused with "ranking cannot repeat". */
async function assertSortOrderFree(sortOrder: number, exceptId?: number) {
  const taken = await repo.findCategoryBySortOrder(sortOrder);
  if (taken && taken.id !== exceptId) throw new AppError("ranking_repeat");
}

export async function createCategory(actor: TActor, input: TCategoryInput): Promise<TCategoryView> {
  assertRole(actor, "platform_admin");
  await assertSortOrderFree(input.sortOrder);
  const slug = `${
    input.names.en
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_|_$/g, "")
      .slice(0, 24) || "category"
  }_${crypto.randomBytes(3).toString("hex")}`;
  try {
    const row = await repo.insertCategory({ slug, names: input.names, sortOrder: input.sortOrder });
    await refreshHeader();
    return toCategoryView(row);
  } catch (err) {
    // Two administrators saving the same order at once: the unique index decides.
    if (isUniqueViolation(err)) throw new AppError("ranking_repeat");
    throw err;
  }
}

export async function updateCategory(actor: TActor, input: TUpdateCategoryInput): Promise<TCategoryView> {
  assertRole(actor, "platform_admin");
  if (!(await repo.findCategoryById(input.id))) throw new AppError("not_found");
  await assertSortOrderFree(input.sortOrder, input.id);
  try {
    const row = await repo.updateCategoryById(input.id, { names: input.names, sortOrder: input.sortOrder });
    await refreshHeader();
    return toCategoryView(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("ranking_repeat");
    throw err;
  }
}

/** Apps of a deleted category keep their place in the market, without a category. */
export async function deleteCategory(actor: TActor, { id }: TNumericId) {
  assertRole(actor, "platform_admin");
  if (!(await repo.findCategoryById(id))) throw new AppError("not_found");
  await repo.deleteCategoryById(id);
  await refreshHeader();
  return { id };
}

// --- Carousel -----------------------------------------------------------------------------------

export async function listCarouselForAdmin(actor: TActor): Promise<TCarouselView[]> {
  assertRole(actor, "platform_admin");
  return repo.listCarousel({ enabledOnly: false });
}

export async function createCarousel(actor: TActor, input: TCarouselInput): Promise<TCarouselView> {
  assertRole(actor, "platform_admin");
  const row = await repo.insertCarousel(input);
  await refreshHeader();
  return row;
}

export async function updateCarousel(actor: TActor, { id, ...input }: TUpdateCarouselInput): Promise<TCarouselView> {
  assertRole(actor, "platform_admin");
  if (!(await repo.findCarouselById(id))) throw new AppError("not_found");
  const row = await repo.updateCarouselById(id, input);
  await refreshHeader();
  return row;
}

export async function deleteCarousel(actor: TActor, { id }: TNumericId) {
  assertRole(actor, "platform_admin");
  if (!(await repo.findCarouselById(id))) throw new AppError("not_found");
  await repo.deleteCarouselById(id);
  await refreshHeader();
  return { id };
}
