// Dot products of one query with many rows in WebAssembly SIMD (vector-kernel.wat): the inner loop
// of in-app vector search, about four times the speed of the same loop in JavaScript. Each index
// keeps its rows in the memory of an instance of its own, so its rows are freed with it. Where
// WebAssembly SIMD is missing, createVectorKernel says so (null) and the caller loops in JavaScript.
import { VECTOR_KERNEL_WASM } from "./vector-kernel.wasm";

export type TVectorKernel = {
  /** Floats per row: the dimensions rounded up to a multiple of 8, the rest zeros. */
  stride: number;
  /** Every row, `stride` floats apart: the caller writes them. */
  rows: Float32Array;
  /** The query of the scores that follow. */
  setQuery(query: Float32Array): void;
  /** Scores of rows from..from+count-1 with the query (a view, valid until the next call). */
  scores(from: number, count: number): Float32Array;
};

type TExports = { memory: WebAssembly.Memory; dots(rows: number, count: number, dims: number, query: number, out: number): void };

const PAGE = 65_536;
let compiled: WebAssembly.Module | null | undefined;

function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    const bytes = Buffer.from(VECTOR_KERNEL_WASM, "base64");
    compiled = process.env.ZELIN_VECTOR_KERNEL !== "js" && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  }
  return compiled;
}

const align = (bytes: number, to: number) => Math.ceil(bytes / to) * to;

/** A kernel for `n` rows of `dims` floats, or null where WebAssembly SIMD is not available. */
export function createVectorKernel(n: number, dims: number): TVectorKernel | null {
  const module = kernelModule();
  if (!module || n < 1 || dims < 1) return null;
  const stride = align(dims, 8);
  // Memory: the query, the scores of up to n rows, then the rows (each part 32-byte aligned).
  const outAt = align(stride * 4, 32);
  const rowsAt = align(outAt + n * 4, 32);
  const bytes = rowsAt + n * stride * 4;
  const { memory, dots } = new WebAssembly.Instance(module, {}).exports as unknown as TExports;
  const have = memory.buffer.byteLength / PAGE;
  const need = Math.ceil(bytes / PAGE);
  if (need > have) memory.grow(need - have);
  // Views taken after the only growth: growing would detach them.
  const query = new Float32Array(memory.buffer, 0, stride);
  const out = new Float32Array(memory.buffer, outAt, n);
  const rows = new Float32Array(memory.buffer, rowsAt, n * stride);
  return {
    stride,
    rows,
    setQuery(q) {
      query.fill(0);
      query.set(q.subarray(0, Math.min(q.length, dims)));
    },
    scores(from, count) {
      dots(rowsAt + from * stride * 4, count, stride, 0, outAt);
      return out.subarray(0, count);
    },
  };
}
