// Metering's one setting, from the environment (read once; tests reset it): the exchange rate
// speech synthesis is priced at. Speech is priced in US dollars (0.024 per 1000 characters);
// Z coins are yuan, so the operator sets how many yuan a dollar costs (docs/configuration.md).
import { z } from "zod";

const ZMeteringEnv = z.object({
  /** Yuan per US dollar; 7.2 unless the operator sets another. */
  USD_CNY_RATE: z.coerce.number().positive("must be a positive number of yuan per US dollar").max(100, "must be at most 100").default(7.2),
});

export type TMeteringSettings = { usdToCny: number };

let cached: TMeteringSettings | undefined;

export function meteringSettings(source: Record<string, string | undefined> = process.env): TMeteringSettings {
  if (cached && source === process.env) return cached;
  const raw = source.USD_CNY_RATE === "" ? undefined : source.USD_CNY_RATE;
  const parsed = ZMeteringEnv.safeParse({ USD_CNY_RATE: raw });
  if (!parsed.success)
    throw new Error(`Zelin cannot start: bad setting USD_CNY_RATE (got ${JSON.stringify(raw)}): ${parsed.error.issues[0].message}. See docs/configuration.md.`);
  const settings = { usdToCny: parsed.data.USD_CNY_RATE };
  if (source === process.env) cached = settings;
  return settings;
}

/** For tests that change the rate between cases. */
export function resetMeteringSettings() {
  cached = undefined;
}
