// The web process entry. `npm start` runs it under the supervisor; production may run it alone.
// With WEB_CONCURRENCY above 1 this process only keeps that many workers on the port (web-cluster.ts).
import cluster from "node:cluster";
import http from "node:http";
import { parseEnv, webWorkerCount } from "./env";
import { logger } from "./lib/logger";
import { applyWebV8Flags } from "./web-v8-flags";

process.env.ZELIN_PROCESS ??= "web";
applyWebV8Flags();
const dev = process.argv.includes("--dev");
// React and Remix pick their production builds from this; set before the server build loads.
process.env.NODE_ENV ??= dev ? "development" : "production";
const env = parseEnv();
// The dev server (Vite, hot reload) is one process.
const workers = dev ? 1 : webWorkerCount(env);

if (workers > 1 && cluster.isPrimary) {
  const { runWebCluster } = await import("./web-cluster");
  runWebCluster(workers, () => {
    logger.info({ port: env.PORT, workers }, `web ready on http://localhost:${env.PORT} (${workers} workers)`);
    process.send?.({ type: "ready", port: env.PORT });
  });
} else {
  const { createWebApp } = await import("./http/app");
  const { keepConnectionsAlive } = await import("./http/keep-alive");
  const { startTurnsEarly } = await import("./turns/head-start/early-start");
  const app = await createWebApp({ dev });
  // A warm chat turn's upstream request leaves before Express sees its request (early-start.ts).
  const server = http.createServer(startTurnsEarly(app)).listen(env.PORT, env.HOST, () => {
    // A worker's readiness is the primary's to report, once every worker listens.
    if (cluster.isWorker) return;
    logger.info({ port: env.PORT }, `web ready on http://localhost:${env.PORT}`);
    process.send?.({ type: "ready", port: env.PORT });
  });
  keepConnectionsAlive(server, env.HTTP_KEEP_ALIVE_MS);
  // A fresh install has no administrator: say how to make one, once per start (the first worker).
  if (!cluster.isWorker || cluster.worker?.id === 1) {
    const { announceSetupCode } = await import("./platform/setup.service");
    announceSetupCode(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).catch((err) => logger.error({ err }, "could not check for a platform administrator"));
  }
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
