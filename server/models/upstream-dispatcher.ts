// The connection pool of the platform's model channels: undici's keep-alive pool, plus a spare
// connection per provider in use, so a chat after a pause does not wait for a connect
// (server/net/warm-connector.ts). An account's own channels get the same through the SSRF guard's
// pools (guarded-dispatcher.ts).
import { Agent } from "undici";
import { singleton } from "../lib/singleton";
import { createWarmConnector } from "../net/warm-connector";

export function getUpstreamDispatcher(): Agent {
  return singleton("upstream-dispatcher", () => new Agent({ connect: createWarmConnector() }));
}
