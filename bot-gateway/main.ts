// The bot gateway process (docs/architecture.md): holds chat-platform connections and answers them. It reports
// liveness from the start so /healthz and the supervisor can see it; the bots it holds come and go
// with their leases (bot-gateway/core/gateway.ts).
import { parseEnv } from "../server/env";
import { logger } from "../server/lib/logger";
import { recordHeartbeat } from "../server/platform/platform.service";
import { startGateway as startBots, type TGatewayOptions } from "./core/gateway";

export async function startGateway(opts: TGatewayOptions = {}) {
  const startedAt = new Date();
  const beat = () => recordHeartbeat("bot_gateway", startedAt).catch((err) => logger.warn({ err }, "heartbeat failed"));
  await beat();
  const timer = setInterval(beat, 5_000);
  const bots = await startBots(opts);
  return {
    bots,
    async stop() {
      clearInterval(timer);
      await bots.stop();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.ZELIN_PROCESS ??= "bot-gateway";
  parseEnv();
  const gateway = await startGateway();
  logger.info({ instanceId: gateway.bots.instanceId }, "bot gateway ready");
  const stop = async () => {
    await gateway.stop();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
