// The web process: one Express app serving health, REST/SSE under /api, tRPC at /trpc, and Remix.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import compression from "compression";
import express from "express";
import { appRouter } from "../trpc/app-router";
import { createContext } from "../trpc/trpc";
import { createApiRouter } from "./api-router";
import { chatStreamHandler } from "../turns/chat.http";
import { CHAT_STREAM_PATHS } from "../turns/chat-stream-paths";
import { appStreamHandler } from "../apps/app-chat.http";
import { createOpenAiRouter } from "../apps/openai-compat/openai.http";
import { createFilesRouter } from "../uploads/files.http";
import { healthz } from "./health";
import { licenceWriteGuard } from "./licence-guard";
import { issueCsrfCookie, verifyCsrf } from "./csrf";
import { bodyErrors, JSON_BODY_LIMIT, jsonBody } from "./json-body";
import { pageCache, servePageCache } from "./page-cache";
import { serveAntdStylesheet } from "./antd-stylesheet.http";
import { withPageRefusals } from "./page-errors";

const ROOT = path.resolve(import.meta.dirname, "../..");

export async function createWebApp({ dev = false }: { dev?: boolean } = {}) {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", true);

  app.get("/healthz", healthz);
  // The chat's event streams first, with exactly what they need of the middleware below and of
  // /api's (licence, CSRF cookie, body, CSRF check) and nothing else: no compression wrapped
  // around every write, no walk through the other routers. Keep this list in step with /api's.
  const streamMiddleware = [
    licenceWriteGuard,
    issueCsrfCookie,
    jsonBody(),
    express.urlencoded({ extended: true, limit: JSON_BODY_LIMIT }),
    bodyErrors,
    verifyCsrf,
  ];
  app.post(`/api${CHAT_STREAM_PATHS.debug}`, ...streamMiddleware, chatStreamHandler("debug"));
  // An app's stream (a session, a visitor or an API key); with no app it is an agent's live chat.
  app.post(`/api${CHAT_STREAM_PATHS.live}`, ...streamMiddleware, appStreamHandler());
  // The OpenAI-compatible API of API apps (bearer key, no cookies): streams too, so before compression.
  app.use("/v1", licenceWriteGuard, createOpenAiRouter());
  // antd's stylesheet leaves gzipped once, ahead of the compression below.
  let build: ServerBuild | (() => Promise<ServerBuild>) | undefined;
  app.get(
    "/_antd/:file",
    serveAntdStylesheet(() => (typeof build === "function" ? build() : build)),
  );
  // Kept market pages leave already gzipped, before the compression below (page-cache.ts).
  if (!dev) app.use(servePageCache(issueCsrfCookie));
  // Streams must reach the browser event by event: never compress text/event-stream.
  app.use(compression({ filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").includes("text/event-stream") && compression.filter(req, res) }));
  app.use(licenceWriteGuard);
  app.use(issueCsrfCookie);
  app.use("/api", createApiRouter());
  app.use("/files", createFilesRouter());
  app.use("/trpc", verifyCsrf, createExpressMiddleware({ router: appRouter, createContext }));

  if (dev) {
    const vite = await import("vite").then((v) => v.createServer({ root: ROOT, server: { middlewareMode: true } }));
    app.use(vite.middlewares);
    build = async () => withPageRefusals((await vite.ssrLoadModule("virtual:remix/server-build")) as ServerBuild);
  } else {
    const clientDir = path.join(ROOT, "build/client");
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y" }));
    app.use(express.static(clientDir, { maxAge: "1h" }));
    build = withPageRefusals((await import(pathToFileURL(path.join(ROOT, "build/server/index.js")).href)) as ServerBuild);
  }
  // Signed-out visitors of the market's public pages share a few seconds' render (page-cache.ts).
  if (!dev) app.use(pageCache);
  app.all("*", createRequestHandler({ build: build!, mode: dev ? "development" : "production" }));
  return app;
}
