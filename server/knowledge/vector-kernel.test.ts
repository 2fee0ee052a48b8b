import { describe, expect, it } from "vitest";
import { compileVectorKernel } from "../../scripts/build-vector-kernel.mjs";
import { createVectorKernel } from "./vector-kernel";
import { VECTOR_KERNEL_WASM } from "./vector-kernel.wasm";
import { buildVectorIndex, searchVectorIndex, toUnit } from "./vector-index";

function randomRows(n: number, dims: number, seed = 3) {
  let s = seed;
  const random = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  return Array.from({ length: n }, () => toUnit(Array.from({ length: dims }, random)));
}

describe("vector kernel", () => {
  it("is built from its WebAssembly text as committed", async () => {
    expect(await compileVectorKernel()).toBe(VECTOR_KERNEL_WASM);
  });

  it("scores rows as a plain dot product would, for dimensions that are and are not a multiple of 8", () => {
    for (const dims of [64, 13, 1, 1536]) {
      const rows = randomRows(37, dims);
      const kernel = createVectorKernel(rows.length, dims)!;
      expect(kernel.stride % 8).toBe(0);
      expect(kernel.stride).toBeGreaterThanOrEqual(dims);
      rows.forEach((row, r) => kernel.rows.set(row, r * kernel.stride));
      const [query] = randomRows(1, dims, 11);
      kernel.setQuery(query);
      const scores = Array.from(kernel.scores(5, 30));
      expect(scores).toHaveLength(30);
      scores.forEach((score, i) =>
        expect(score).toBeCloseTo(
          rows[5 + i].reduce((sum, x, j) => sum + x * query[j], 0),
          5,
        ),
      );
    }
  });

  it("leaves the rows of one kernel alone when another is used", () => {
    const [a, b] = [createVectorKernel(4, 8)!, createVectorKernel(4, 8)!];
    a.rows.fill(1);
    b.rows.fill(2);
    a.setQuery(new Float32Array(8).fill(1));
    b.setQuery(new Float32Array(8).fill(1));
    expect(Array.from(a.scores(0, 4))).toEqual([8, 8, 8, 8]);
    expect(Array.from(b.scores(0, 4))).toEqual([16, 16, 16, 16]);
  });

  it("finds the same rows as the JavaScript loop that runs without it", async () => {
    const dims = 24;
    const rows = randomRows(5_000, dims);
    const unit = new Float32Array(rows.length * dims);
    rows.forEach((row, r) => unit.set(row, r * dims));
    const index = await buildVectorIndex({ ids: rows.map((_, i) => `p${i}`), dims, unit });
    expect(index.kernel).not.toBeNull();
    const plain = { ...index, kernel: null, centroidKernel: null };
    for (const query of randomRows(20, dims, 5)) {
      const fast = searchVectorIndex(index, query, 10);
      const slow = searchVectorIndex(plain, query, 10);
      expect(fast.map((h) => h.id)).toEqual(slow.map((h) => h.id));
      fast.forEach((h, i) => expect(h.score).toBeCloseTo(slow[i].score, 5));
    }
  });
});
