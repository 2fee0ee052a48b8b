// The web process entry. `npm start` runs it under the supervisor; production may run it alone.
import { parseEnv } from "./env";
import { logger } from "./lib/logger";
import { createWebApp } from "./http/app";

process.env.ZELIN_PROCESS ??= "web";
// React and Remix pick their production builds from this; set before the server build loads.
process.env.NODE_ENV ??= process.argv.includes("--dev") ? "development" : "production";
const env = parseEnv();
const app = await createWebApp({ dev: process.argv.includes("--dev") });
const server = app.listen(env.PORT, env.HOST, () => {
  logger.info({ port: env.PORT }, `web ready on http://localhost:${env.PORT}`);
  process.send?.({ type: "ready", port: env.PORT });
});
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
