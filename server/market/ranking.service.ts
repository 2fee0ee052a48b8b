// The market's ranking lists: engineer earnings, popularity, language agents, image
// agents. The market.rankings job rebuilds them every few minutes (workers/main.ts schedules it);
// pages read the stored lists. Each list is replaced in one transaction: readers see the old list
// or the new one, never half of each.
import { withTransaction } from "../db/transaction";
import { createRefreshingCache } from "../lib/refreshing-cache";
import { logger } from "../lib/logger";
import * as repo from "./ranking.repository";
import { RANKING_LISTS, type TRankingList, type TRankingRow } from "./market.schema";

export { RANKING_LISTS, type TRankingList };

export const RANKING_SIZE = 50;
export const RANKING_EVERY_MS = 5 * 60_000;
/** The app category whose apps' agents count as image agents (the market's starting "image" category). */
export const IMAGE_CATEGORY_SLUG = "image";

/** Recounts the apps' counters and popularity, then rebuilds every list; answers the rows written per list. */
export async function rebuildRankings(now = new Date()) {
  const started = performance.now();
  await repo.recountApps();
  const sources: Record<TRankingList, ReturnType<typeof repo.popularAppsSql>> = {
    engineer_earnings: repo.engineerEarningsSql(RANKING_SIZE),
    popularity: repo.popularAppsSql(RANKING_SIZE),
    language_agents: repo.agentsOfKindSql(["text", "reasoning"], RANKING_SIZE),
    image_agents: repo.agentsOfKindSql(["image"], RANKING_SIZE, IMAGE_CATEGORY_SLUG),
  };
  const written: Record<string, number> = {};
  for (const list of RANKING_LISTS) {
    written[list] = await withTransaction((tx) => repo.replaceList(list, sources[list], now, tx));
  }
  logger.info({ written, ms: Math.round(performance.now() - started) }, "market rankings rebuilt");
  return written as Record<TRankingList, number>;
}

/** The job's handler: the payload carries nothing, each run reads the current rows. */
export async function handleMarketRankings() {
  return rebuildRankings();
}

/** The stored lists as the pages show them (top `limit` each). */
export async function readRankings(limit = 10): Promise<Record<TRankingList, TRankingRow[]>> {
  const rows = await repo.readRankings([...RANKING_LISTS], limit);
  const out = Object.fromEntries(RANKING_LISTS.map((l) => [l, [] as TRankingRow[]])) as Record<TRankingList, TRankingRow[]>;
  for (const r of rows) {
    out[r.list as TRankingList]?.push({
      rank: r.rank,
      score: Number(r.score),
      targetType: r.target_type,
      targetId: r.target_id,
      name: r.name ?? "",
      avatarUrl: r.avatar_url,
      subtitle: r.subtitle ?? "",
    });
  }
  return out;
}

// Lists change every few minutes: the home pages read them through a short per-process cache.
const cached = createRefreshingCache<Record<TRankingList, TRankingRow[]>>({ maxAgeMs: 15_000, idleMs: 10 * 60_000, load: () => readRankings(10) });
export function readRankingsCached() {
  return cached.get("top10");
}
