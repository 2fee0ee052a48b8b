// The bot gateway process: holds chat-platform connections (DESIGN 2). It reports liveness from
// the start so /healthz and the supervisor can see it; channels register here as they are built.
import { parseEnv } from "../server/env";
import { logger } from "../server/lib/logger";
import { recordHeartbeat } from "../server/platform/platform.service";
import type { Channel } from "./core/channel";

const channels: Channel[] = [];

export async function startGateway() {
  const startedAt = new Date();
  const beat = () => recordHeartbeat("bot_gateway", startedAt).catch((err) => logger.warn({ err }, "heartbeat failed"));
  await beat();
  const timer = setInterval(beat, 5_000);
  return {
    channels,
    async stop() {
      clearInterval(timer);
      await Promise.all(channels.map((c) => c.disconnect()));
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.ZELIN_PROCESS ??= "bot-gateway";
  parseEnv();
  const gateway = await startGateway();
  logger.info({ channels: channels.length }, "bot gateway ready");
  const stop = async () => {
    await gateway.stop();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
