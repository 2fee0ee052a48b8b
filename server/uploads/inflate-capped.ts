// Inflating untrusted bytes with a ceiling. The output is counted as it comes and the inflater is
// stopped at the first chunk past the cap, so a bomb costs at most `cap` bytes of work whatever it
// declares. zlib runs on libuv's thread pool: the event loop keeps serving meanwhile, and each
// chunk is dropped once counted (after an optional look, e.g. a CRC or a search for a token).
import zlib from "node:zlib";

export type TInflateOutcome = {
  /** Bytes produced, counting the chunk that went past the cap. */
  bytes: number;
  /** The output went past the cap; inflating stopped there. */
  exceeded: boolean;
  /** The data is not a valid stream of its format (what came before the fault is counted). */
  failed: boolean;
  /** CRC-32 of the output, when it did not exceed the cap. */
  crc: number;
};

const CHUNK_BYTES = 64 * 1024;
/** Inputs this small are inflated at once, in place: a thread-pool round trip would cost more. */
const INFLATE_AT_ONCE_BELOW = 16 * 1024;
/** The most deflate can expand its input, about 1032 to 1. */
const MAX_DEFLATE_RATIO = 1032;
const options = { chunkSize: CHUNK_BYTES, finishFlush: zlib.constants.Z_SYNC_FLUSH };

/** A small input inflated in one call, under the same ceiling (its work is at most ~16 MB of output). */
function inflateSmall(data: Uint8Array, opts: { format: "raw" | "zlib"; cap: number; onChunk?: (chunk: Buffer) => void }): TInflateOutcome {
  try {
    const inflate = opts.format === "raw" ? zlib.inflateRawSync : zlib.inflateSync;
    const out = inflate(data, { ...options, maxOutputLength: Math.max(1, opts.cap) });
    if (out.length > opts.cap) return { bytes: out.length, exceeded: true, failed: false, crc: 0 };
    opts.onChunk?.(out);
    return { bytes: out.length, exceeded: false, failed: false, crc: zlib.crc32(out) };
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return { bytes: opts.cap + 1, exceeded: true, failed: false, crc: 0 };
    // What came before the fault is not known here: it is counted as the most it could have been.
    return { bytes: Math.min(opts.cap, data.length * MAX_DEFLATE_RATIO), exceeded: false, failed: true, crc: 0 };
  }
}

export function inflateCapped(data: Uint8Array, opts: { format: "raw" | "zlib"; cap: number; onChunk?: (chunk: Buffer) => void }): Promise<TInflateOutcome> {
  if (data.length < INFLATE_AT_ONCE_BELOW) return Promise.resolve(inflateSmall(data, opts));
  return new Promise((resolve) => {
    // A stream cut short ends quietly, as readers of these formats tolerate; only bad data is a fault.
    const inflater = opts.format === "raw" ? zlib.createInflateRaw(options) : zlib.createInflate(options);
    let bytes = 0;
    let crc = 0;
    let settled = false;
    const settle = (outcome: Omit<TInflateOutcome, "bytes" | "crc">) => {
      if (settled) return;
      settled = true;
      resolve({ bytes, crc, ...outcome });
    };
    inflater.on("data", (chunk: Buffer) => {
      if (settled) return;
      bytes += chunk.length;
      if (bytes > opts.cap) {
        settle({ exceeded: true, failed: false });
        inflater.destroy();
        return;
      }
      crc = zlib.crc32(chunk, crc);
      opts.onChunk?.(chunk);
    });
    inflater.on("error", () => settle({ exceeded: false, failed: true }));
    inflater.on("end", () => settle({ exceeded: false, failed: false }));
    inflater.end(data);
  });
}
