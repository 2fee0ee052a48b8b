// Nearest vectors in the app, for servers without pgvector and the embedded database
// (docs/decisions/0012-direct-pool-and-in-app-vector-index.md).
// Comparing a query with every vector of 100,000 passages is ~6 M multiply-adds per set of 64
// dimensions, more with real embeddings, and eight such queries at once queue on one event loop.
// So a trained set's vectors get an inverted-file index, as FAISS's IndexIVFFlat: spherical k-means
// splits them into about sqrt(n) lists around centroids, and a query compares itself with the
// centroids, then only with the vectors of the closest lists. Small sets stay one list (an exact
// scan). The index is built in slices that yield to the event loop, so building never stalls chats.
// The rows live in a WebAssembly kernel's memory (vector-kernel.ts), which scores a list of them
// with SIMD; without one, the same loop runs in JavaScript.
import { createVectorKernel, type TVectorKernel } from "./vector-kernel";

/** Unit-length rows of one array, for one set: the input of an index. */
export type TUnitRows = { ids: string[]; dims: number; unit: Float32Array };

export type TVectorIndex = {
  dims: number;
  /** Row ids, grouped by list: list l holds rows offsets[l] .. offsets[l + 1] - 1. */
  ids: string[];
  /** Row r's vector starts at r * stride (stride >= dims; the floats after dims are zeros). */
  unit: Float32Array;
  stride: number;
  /** Scores rows in WebAssembly when present (unit is then its memory). */
  kernel: TVectorKernel | null;
  centroids: Float32Array;
  /** The centroids again, in a kernel of their own (null without WebAssembly SIMD, or for one list). */
  centroidKernel: TVectorKernel | null;
  offsets: Int32Array;
};

/** Below this many vectors a set is one list: scanning it all is as cheap as choosing lists. */
export const SINGLE_LIST_BELOW = 2_000;
/** Lists a query reads: the closest ones, at least this many... */
const MIN_PROBES = 8;
/** ...and at least this share of them. */
const PROBE_SHARE = 0.1;
const KMEANS_ROUNDS = 5;
/** k-means trains on this many rows per list at most (FAISS's default is 256; fewer is as good for choosing lists). */
const TRAIN_ROWS_PER_LIST = 32;
/** Multiply-adds between yields to the event loop while building (a few milliseconds). */
const SLICE_WORK = 2_000_000;

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Scales a vector to unit length (a zero vector stays zero). */
export function toUnit(v: ArrayLike<number>): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
  norm = Math.sqrt(norm) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] / norm;
  return out;
}

function dot(a: Float32Array, aAt: number, b: Float32Array, bAt: number, dims: number) {
  let s = 0;
  for (let i = 0; i < dims; i++) s += a[aAt + i] * b[bAt + i];
  return s;
}

/** The list (centroid) closest to row r of `rows`. */
function nearestList(rows: Float32Array, r: number, centroids: Float32Array, lists: number, dims: number) {
  let best = 0;
  let bestScore = -Infinity;
  for (let c = 0; c < lists; c++) {
    const s = dot(rows, r * dims, centroids, c * dims, dims);
    if (s > bestScore) {
      bestScore = s;
      best = c;
    }
  }
  return best;
}

/** A deterministic generator (mulberry32): the same set gets the same index. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Builds the index of a set's unit rows (yielding between slices of work). */
export async function buildVectorIndex(rows: TUnitRows): Promise<TVectorIndex> {
  const { dims } = rows;
  const n = rows.ids.length;
  const lists = n < SINGLE_LIST_BELOW ? 1 : Math.round(Math.sqrt(n));
  if (lists === 1) {
    const store = storeRows(n, dims);
    for (let r = 0; r < n; r++) store.unit.set(rows.unit.subarray(r * dims, (r + 1) * dims), r * store.stride);
    return { dims, ids: rows.ids, ...store, centroids: new Float32Array(dims), centroidKernel: null, offsets: Int32Array.from([0, n]) };
  }

  // Train on a sample: k-means over every row would cost rounds x n x lists x dims.
  const random = seeded(n * 31 + dims);
  const sampleSize = Math.min(n, lists * TRAIN_ROWS_PER_LIST);
  const sample = new Float32Array(sampleSize * dims);
  const picked = pickDistinct(n, sampleSize, random);
  picked.forEach((r, i) => sample.set(rows.unit.subarray(r * dims, (r + 1) * dims), i * dims));
  const centroids = new Float32Array(lists * dims);
  for (let c = 0; c < lists; c++) centroids.set(sample.subarray(c * dims, (c + 1) * dims), c * dims);

  const assigned = new Int32Array(sampleSize);
  let work = 0;
  for (let round = 0; round < KMEANS_ROUNDS; round++) {
    for (let r = 0; r < sampleSize; r++) {
      assigned[r] = nearestList(sample, r, centroids, lists, dims);
      work += lists * dims;
      if (work >= SLICE_WORK) {
        work = 0;
        await yieldNow();
      }
    }
    // Spherical k-means: each centroid is the normalised sum of its rows; an empty list takes a random row.
    const sums = new Float32Array(lists * dims);
    const sizes = new Int32Array(lists);
    for (let r = 0; r < sampleSize; r++) {
      const c = assigned[r];
      sizes[c]++;
      for (let i = 0; i < dims; i++) sums[c * dims + i] += sample[r * dims + i];
    }
    for (let c = 0; c < lists; c++) {
      const r = Math.floor(random() * sampleSize);
      centroids.set(toUnit(sizes[c] ? sums.subarray(c * dims, (c + 1) * dims) : sample.subarray(r * dims, (r + 1) * dims)), c * dims);
    }
  }

  // Every row to its closest list, then the rows regrouped list by list.
  const centroidKernel = createVectorKernel(lists, dims);
  if (centroidKernel) for (let c = 0; c < lists; c++) centroidKernel.rows.set(centroids.subarray(c * dims, (c + 1) * dims), c * centroidKernel.stride);
  const listOf = new Int32Array(n);
  const sizes = new Int32Array(lists);
  for (let r = 0; r < n; r++) {
    listOf[r] = centroidKernel
      ? nearestByKernel(centroidKernel, rows.unit.subarray(r * dims, (r + 1) * dims), lists)
      : nearestList(rows.unit, r, centroids, lists, dims);
    sizes[listOf[r]]++;
    work += lists * dims;
    if (work >= SLICE_WORK) {
      work = 0;
      await yieldNow();
    }
  }
  const offsets = new Int32Array(lists + 1);
  for (let c = 0; c < lists; c++) offsets[c + 1] = offsets[c] + sizes[c];
  const next = offsets.slice(0, lists);
  const ids = new Array<string>(n);
  const store = storeRows(n, dims);
  for (let r = 0; r < n; r++) {
    const at = next[listOf[r]]++;
    ids[at] = rows.ids[r];
    store.unit.set(rows.unit.subarray(r * dims, (r + 1) * dims), at * store.stride);
  }
  return { dims, ids, ...store, centroids, centroidKernel, offsets };
}

function nearestByKernel(kernel: TVectorKernel, row: Float32Array, lists: number) {
  kernel.setQuery(row);
  const scores = kernel.scores(0, lists);
  let best = 0;
  for (let c = 1; c < lists; c++) if (scores[c] > scores[best]) best = c;
  return best;
}

/** Room for n rows: in a kernel's memory where WebAssembly SIMD runs, else a plain array. */
function storeRows(n: number, dims: number): Pick<TVectorIndex, "unit" | "stride" | "kernel"> {
  const kernel = createVectorKernel(n, dims);
  return kernel ? { unit: kernel.rows, stride: kernel.stride, kernel } : { unit: new Float32Array(n * dims), stride: dims, kernel: null };
}

function pickDistinct(n: number, count: number, random: () => number): number[] {
  if (count >= n) return Array.from({ length: n }, (_, i) => i);
  const all = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (n - i));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return Array.from(all.subarray(0, count));
}

/** How many of an index's lists a query reads. */
export function probesOf(index: TVectorIndex) {
  const lists = index.offsets.length - 1;
  return Math.min(lists, Math.max(MIN_PROBES, Math.ceil(lists * PROBE_SHARE)));
}

/** The `probes` lists whose centroids are closest to the query, closest first. */
function closestLists(index: TVectorIndex, query: Float32Array, probes: number): Int32Array {
  const { dims, centroidKernel } = index;
  const lists = index.offsets.length - 1;
  let scores: ArrayLike<number>;
  if (centroidKernel) {
    centroidKernel.setQuery(query);
    scores = centroidKernel.scores(0, lists);
  } else {
    const own = new Float64Array(lists);
    for (let c = 0; c < lists; c++) own[c] = dot(index.centroids, c * dims, query, 0, dims);
    scores = own;
  }
  const top = topOf(probes);
  for (let c = 0; c < lists; c++) if (scores[c] > top.best[probes - 1]) top.keep(c, scores[c]);
  return top.items;
}

/** The best `k` items seen, best first, in two plain arrays (no object per item). */
function topOf(k: number) {
  const items = new Int32Array(k).fill(-1);
  const best = new Float64Array(k).fill(-Infinity);
  const keep = (item: number, score: number) => {
    let j = k - 1;
    while (j > 0 && best[j - 1] < score) {
      best[j] = best[j - 1];
      items[j] = items[j - 1];
      j--;
    }
    best[j] = score;
    items[j] = item;
  };
  return { items, best, keep };
}

/**
 * The `k` rows most similar to `query` (unit length) among the lists closest to it, best first,
 * with their cosine similarity. `probes` lists are read (all of them gives the exact answer).
 */
export function searchVectorIndex(index: TVectorIndex, query: Float32Array, k: number, probes = probesOf(index)): Array<{ id: string; score: number }> {
  const { dims, unit } = index;
  if (query.length !== dims || k < 1) return [];
  const lists = index.offsets.length - 1;
  const chosen = probes >= lists ? Int32Array.from({ length: lists }, (_, i) => i) : closestLists(index, query, probes);
  // A row is kept (a call) only when it beats the k-th best so far, so the loops over rows make no
  // call and no object per row.
  const quads = dims - (dims % 4);
  const { items: rows, best, keep: keepTop } = topOf(k);
  let floor = -Infinity;
  const keep = (r: number, s: number) => {
    keepTop(r, s);
    floor = best[k - 1];
  };
  const { kernel, stride } = index;
  kernel?.setQuery(query);
  for (const c of chosen) {
    const start = index.offsets[c];
    const end = index.offsets[c + 1];
    if (kernel) {
      const scores = kernel.scores(start, end - start);
      for (let i = 0; i < scores.length; i++) if (scores[i] > floor) keep(start + i, scores[i]);
      continue;
    }
    for (let r = start, at = r * stride; r < end; r++, at += stride) {
      // Four sums side by side (a fifth faster than one); the last dims % 4 after them.
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i < quads; i += 4) {
        s0 += unit[at + i] * query[i];
        s1 += unit[at + i + 1] * query[i + 1];
        s2 += unit[at + i + 2] * query[i + 2];
        s3 += unit[at + i + 3] * query[i + 3];
      }
      for (; i < dims; i++) s0 += unit[at + i] * query[i];
      const s = s0 + s1 + s2 + s3;
      if (s > floor) keep(r, s);
    }
  }
  const out: Array<{ id: string; score: number }> = [];
  for (let j = 0; j < k && best[j] > -Infinity; j++) out.push({ id: index.ids[rows[j]], score: best[j] });
  return out;
}
