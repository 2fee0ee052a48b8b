// What the loopback media providers (OpenAI images and speech, SD WebUI, ComfyUI) share: a node:http
// server on 127.0.0.1:0 that records every request it is sent, JSON answers, and the real pictures
// they draw (PNG of the asked shape, scaled down to at most 512 px a side).
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { makePng } from "../helpers/png";

/** One request as the fake received it: the body parsed as JSON when it was JSON, else the raw bytes. */
export type TFakeRequest = { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; body: any; raw: Buffer };

/** How the next submitted tasks go (each fake takes the parts its provider can do). */
export type TFakeBehaviourBase = {
  outcome?: "succeed" | "failed";
  /** Running polls before the outcome (default 1). */
  pollsUntilDone?: number;
  /** Tasks stay running until finish(taskId). */
  hold?: boolean;
};

export const LARGEST_SIDE = 512;

/** A real PNG of the asked shape, at most 512 px a side. */
export function drawPicture(width: number, height: number, shade = 128) {
  const scale = Math.min(1, LARGEST_SIDE / Math.max(width, height));
  return makePng(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), shade);
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

export function isInteger(x: unknown): x is number {
  return typeof x === "number" && Number.isInteger(x);
}

/** Starts the server; `handle` answers each request after it was read and recorded. */
export async function startLoopback(handle: (req: TFakeRequest, res: http.ServerResponse) => unknown) {
  const requests: TFakeRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", "http://fake");
    let body: any = raw.length ? raw : null;
    if (String(req.headers["content-type"] ?? "").includes("application/json")) {
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {}
    }
    const got: TFakeRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body, raw };
    requests.push(got);
    try {
      await handle(got, res);
    } catch (err) {
      sendJson(res, 500, { error: `fake failed: ${(err as Error).message}` });
    }
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A promise with its resolver outside: a held task waits on it until finish(). */
export function makeGate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

/** Polls `fn` until it answers something truthy (returned), or fails after `ms`. */
export async function waitUntil<T>(fn: () => T, ms = 5000, what = "condition"): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
