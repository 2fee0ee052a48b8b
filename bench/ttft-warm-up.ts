// Both TTFT benches first serve WARM_UP_TURNS short streams through the server they measure, as a
// server in service has served many: V8 compiles a function for speed only once it has run a while,
// and a relay that had served five streams (the client's own warm-up) would put that compilation,
// a start-up cost, into the first measured turns. The fake answers with two chunks and no pause
// meanwhile, so this takes a second or two; then it is set back to the measured stream.

/** Short streams served before measuring: every per-turn function has run hundreds of times. */
export const WARM_UP_TURNS = 300;
const AT_ONCE = 8;

type TFake = { setBehaviour(key: string, behaviour: { stream: { chunks: number; delayMs: number; noUsage: boolean } }): Promise<void> | void };

/**
 * Runs `send(i)` WARM_UP_TURNS times, AT_ONCE at a time, with the fake answering short; each must
 * resolve to a complete stream's text (a failure stops the bench: something is wrong before measuring).
 */
export async function warmUp(
  fake: TFake,
  key: string,
  measured: { chunks: number; delayMs: number },
  send: (i: number) => Promise<{ ok: boolean; text: string }>,
) {
  await fake.setBehaviour(key, { stream: { chunks: 2, delayMs: 0, noUsage: false } });
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < WARM_UP_TURNS; i = next++) {
      const r = await send(i);
      if (!r.ok) throw new Error(`warm-up stream ${i} failed: ${r.text.slice(0, 200)}`);
    }
  };
  const t0 = performance.now();
  try {
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    console.log(`warm-up: ${WARM_UP_TURNS} short streams in ${Math.round(performance.now() - t0)} ms`);
  } finally {
    await fake.setBehaviour(key, { stream: { chunks: measured.chunks, delayMs: measured.delayMs, noUsage: false } });
  }
}
