// App categories and the carousel: the only queries of these two tables.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";

const CATEGORY = { id: true, slug: true, names: true, sortOrder: true } as const;
const CAROUSEL = { id: true, name: true, imageUrl: true, link: true, sortOrder: true, enabled: true } as const;

export async function listCategories(tx: TDbOrTx = getDb()) {
  return tx.appCategory.findMany({ orderBy: { sortOrder: "asc" }, select: CATEGORY });
}

export async function findCategoryBySortOrder(sortOrder: number, tx: TDbOrTx = getDb()) {
  return tx.appCategory.findUnique({ where: { sortOrder }, select: { id: true } });
}

export async function findCategoryById(id: number, tx: TDbOrTx = getDb()) {
  return tx.appCategory.findUnique({ where: { id }, select: CATEGORY });
}

export async function insertCategory(data: { slug: string; names: Prisma.InputJsonValue; sortOrder: number }, tx: TDbOrTx = getDb()) {
  return tx.appCategory.create({ data, select: CATEGORY });
}

export async function updateCategoryById(id: number, data: { names: Prisma.InputJsonValue; sortOrder: number }, tx: TDbOrTx = getDb()) {
  return tx.appCategory.update({ where: { id }, data, select: CATEGORY });
}

export async function deleteCategoryById(id: number, tx: TDbOrTx = getDb()) {
  await tx.appCategory.delete({ where: { id } });
}

export async function listCarousel(opts: { enabledOnly: boolean }, tx: TDbOrTx = getDb()) {
  return tx.carousel.findMany({ where: opts.enabledOnly ? { enabled: true } : {}, orderBy: [{ sortOrder: "asc" }, { id: "asc" }], select: CAROUSEL });
}

export async function findCarouselById(id: number, tx: TDbOrTx = getDb()) {
  return tx.carousel.findUnique({ where: { id }, select: CAROUSEL });
}

export async function insertCarousel(data: { name: string; imageUrl: string; link: string; sortOrder: number; enabled: boolean }, tx: TDbOrTx = getDb()) {
  return tx.carousel.create({ data, select: CAROUSEL });
}

export async function updateCarouselById(
  id: number,
  data: { name: string; imageUrl: string; link: string; sortOrder: number; enabled: boolean },
  tx: TDbOrTx = getDb(),
) {
  return tx.carousel.update({ where: { id }, data, select: CAROUSEL });
}

export async function deleteCarouselById(id: number, tx: TDbOrTx = getDb()) {
  await tx.carousel.delete({ where: { id } });
}
