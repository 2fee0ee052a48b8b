// One SSRF-guarded connection pool per own-channel origin, so an account's key keeps its
// keep-alive connections like the platform's channels do. Keyed by the allowlist too: an
// operator changing SSRF_ALLOWLIST gets fresh checks rather than a pool built under the old list.
import type { Agent } from "undici";
import { createGuardedAgent } from "../net/guarded-fetch";

const MAX_POOLS = 256;
const agents = new Map<string, Agent>();

export function getGuardedDispatcher(baseUrl: string): Agent {
  const origin = new URL(baseUrl).origin;
  const key = `${origin}|${process.env.SSRF_ALLOWLIST ?? ""}`;
  let agent = agents.get(key);
  if (!agent) {
    // Throws BlockedAddressError for a literal private address: the caller reports a connect failure.
    agent = createGuardedAgent(origin);
    if (agents.size >= MAX_POOLS) {
      const [oldest, pool] = agents.entries().next().value as [string, Agent];
      agents.delete(oldest);
      void pool.close();
    }
    agents.set(key, agent);
  }
  return agent;
}
