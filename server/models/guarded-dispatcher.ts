// One SSRF-guarded connection pool per own-channel origin, so an account's key keeps its
// keep-alive connections like the platform's channels do. Keyed by the allowlist too: an
// operator changing SSRF_ALLOWLIST gets fresh checks rather than a pool built under the old list.
import type { Agent } from "undici";
import { createGuardedAgent, type TGuardedAgent } from "../net/guarded-fetch";

const MAX_POOLS = 256;

/** Pools per origin, the oldest closed past `maxPools`, its spare connection with it. */
export function createGuardedPools(maxPools = MAX_POOLS) {
  const agents = new Map<string, TGuardedAgent>();
  return {
    get(baseUrl: string): Agent {
      const origin = new URL(baseUrl).origin;
      const key = `${origin}|${process.env.SSRF_ALLOWLIST ?? ""}`;
      let agent = agents.get(key);
      if (!agent) {
        // Throws BlockedAddressError for a literal private address: the caller reports a connect failure.
        agent = createGuardedAgent(origin);
        if (agents.size >= maxPools) {
          const [oldest, pool] = agents.entries().next().value as [string, TGuardedAgent];
          agents.delete(oldest);
          // The spare would otherwise be reopened every few seconds for its origin's warm window.
          pool.connector.close();
          void pool.close();
        }
        agents.set(key, agent);
      }
      return agent;
    },
  };
}

const pools = createGuardedPools();

export function getGuardedDispatcher(baseUrl: string): Agent {
  return pools.get(baseUrl);
}
