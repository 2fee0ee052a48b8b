import { describe, expect, it } from "vitest";
import { buildVectorIndex, probesOf, searchVectorIndex, SINGLE_LIST_BELOW, toUnit, type TUnitRows } from "./vector-index";

/** Rows around `topics` random directions (as passages about a few subjects are), each a little noisy. */
function makeRows(n: number, dims: number, topics: number, noise = 0.3, seed = 7): TUnitRows {
  let s = seed;
  const random = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const centres = Array.from({ length: topics }, () => toUnit(Array.from({ length: dims }, random)));
  const unit = new Float32Array(n * dims);
  for (let r = 0; r < n; r++) {
    const c = centres[r % topics];
    unit.set(toUnit(Array.from({ length: dims }, (_, i) => c[i] + noise * random())), r * dims);
  }
  return { ids: Array.from({ length: n }, (_, i) => `p${i}`), dims, unit };
}

const idsOf = (hits: Array<{ id: string }>) => hits.map((h) => h.id);

describe("vector index", () => {
  it("keeps a small set as one list, so its answer is exact", async () => {
    const rows = makeRows(SINGLE_LIST_BELOW - 1, 16, 5);
    const index = await buildVectorIndex(rows);
    expect(index.offsets.length - 1).toBe(1);
    const query = rows.unit.slice(3 * 16, 4 * 16);
    expect(idsOf(searchVectorIndex(index, query, 1))).toEqual(["p3"]);
  });

  it("splits a large set into about sqrt(n) lists holding every row once", async () => {
    const rows = makeRows(10_000, 32, 40);
    const index = await buildVectorIndex(rows);
    const lists = index.offsets.length - 1;
    expect(lists).toBe(100);
    expect(index.offsets[lists]).toBe(10_000);
    expect(new Set(index.ids).size).toBe(10_000);
    // Row p42 keeps its own vector after regrouping.
    const at = index.ids.indexOf("p42");
    expect(Array.from(index.unit.subarray(at * 32, (at + 1) * 32))).toEqual(Array.from(rows.unit.subarray(42 * 32, 43 * 32)));
    expect(probesOf(index)).toBe(10);
  });

  it("finds nearly all of the exact nearest rows while reading about a tenth of them", async () => {
    const dims = 32;
    const rows = makeRows(10_000, dims, 40);
    const index = await buildVectorIndex(rows);
    let found = 0;
    let wanted = 0;
    for (let q = 0; q < 50; q++) {
      // A query near a row, as a question is near its passage.
      const base = rows.unit.subarray(q * 197 * dims, (q * 197 + 1) * dims);
      const query = toUnit(Array.from(base, (x, i) => x + 0.05 * Math.sin(q + i)));
      const exact = idsOf(searchVectorIndex(index, query, 10, Infinity));
      const approx = idsOf(searchVectorIndex(index, query, 10));
      found += approx.filter((id) => exact.includes(id)).length;
      wanted += exact.length;
    }
    expect(found / wanted).toBeGreaterThanOrEqual(0.85);
    // The lists read hold about a tenth of the rows.
    const read = index.offsets[probesOf(index)] - index.offsets[0];
    expect(read).toBeLessThan(10_000 * 0.25);
  });

  it("builds the same index from the same rows, and yields to other work while building", async () => {
    const rows = makeRows(6_000, 32, 20);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const [a, b] = await Promise.all([buildVectorIndex(rows), buildVectorIndex(rows)]);
    clearInterval(timer);
    expect(Array.from(a.centroids)).toEqual(Array.from(b.centroids));
    expect(a.ids).toEqual(b.ids);
    expect(ticks).toBeGreaterThan(0);
  });

  it("returns the k best, best first, exactly as a full sort would", async () => {
    const rows = makeRows(500, 8, 3);
    const index = await buildVectorIndex(rows);
    const query = toUnit([1, 2, 3, 4, 5, 6, 7, 8]);
    const all = rows.ids.map((id, r) => ({ id, score: Array.from(rows.unit.subarray(r * 8, (r + 1) * 8)).reduce((s, x, i) => s + x * query[i], 0) }));
    const want = all.sort((a, b) => b.score - a.score).slice(0, 7);
    const got = searchVectorIndex(index, query, 7);
    expect(idsOf(got)).toEqual(idsOf(want));
    got.forEach((g, i) => expect(g.score).toBeCloseTo(want[i].score, 5));
  });

  it("answers nothing for a query of another length", async () => {
    const index = await buildVectorIndex(makeRows(100, 8, 2));
    expect(searchVectorIndex(index, new Float32Array(16), 5)).toEqual([]);
  });
});
