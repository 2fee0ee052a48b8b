// A tiny HTTP client for integration tests: keeps cookies like a browser and echoes the CSRF
// cookie in the header, as our pages do.
import type { AddressInfo } from "node:net";
import http, { type RequestListener, type Server } from "node:http";
import express from "express";
import { createApiRouter } from "../../server/http/api-router";
import { issueCsrfCookie } from "../../server/http/csrf";
import { createFilesRouter } from "../../server/uploads/files.http";
import { startTurnsEarly } from "../../server/turns/head-start/early-start";

export function createApiApp() {
  const app = express();
  app.set("trust proxy", true);
  app.use(issueCsrfCookie);
  app.use("/api", createApiRouter());
  app.use("/files", createFilesRouter());
  return app;
}

/** /api and /files behind the chat's early start, as the web process serves them. `wrap` sits between the two. */
export async function startApiServer({ wrap = (app: RequestListener) => app }: { wrap?: (app: RequestListener) => RequestListener } = {}) {
  const server: Server = http.createServer(startTurnsEarly(wrap(createApiApp()))).listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export class Browser {
  cookies = new Map<string, string>([["zl_csrf", "test-csrf-token"]]);
  constructor(
    private readonly base: string,
    readonly ip = "10.1.0.1",
  ) {}

  async call(path: string, init: { method?: string; body?: unknown; csrf?: string | null; lang?: string } = {}) {
    const headers: Record<string, string> = { cookie: this.cookieHeader(init.lang), "x-forwarded-for": this.ip };
    const method = init.method ?? (init.body ? "POST" : "GET");
    if (init.body) headers["content-type"] = "application/json";
    if (method !== "GET" && init.csrf !== null) headers["x-csrf-token"] = init.csrf ?? this.cookies.get("zl_csrf")!;
    const res = await fetch(`${this.base}${path}`, { method, headers, body: init.body ? JSON.stringify(init.body) : undefined, redirect: "manual" });
    this.keepCookies(res);
    return { http: res.status, body: (await res.json().catch(() => null)) as { status: number; description: string; data: any } };
  }

  /** A multipart/form-data POST, as a browser's file upload sends it. */
  async upload(
    path: string,
    parts: { fields?: Record<string, string>; files?: Record<string, { bytes: Uint8Array; filename?: string; type?: string }> },
    init: { csrf?: string | null; lang?: string } = {},
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(parts.fields ?? {})) form.append(name, value);
    for (const [name, file] of Object.entries(parts.files ?? {}))
      form.append(name, new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "application/octet-stream" }), file.filename ?? `${name}.png`);
    const headers: Record<string, string> = { cookie: this.cookieHeader(init.lang), "x-forwarded-for": this.ip };
    if (init.csrf !== null) headers["x-csrf-token"] = init.csrf ?? this.cookies.get("zl_csrf")!;
    const res = await fetch(`${this.base}${path}`, { method: "POST", headers, body: form, redirect: "manual" });
    this.keepCookies(res);
    return { http: res.status, body: (await res.json().catch(() => null)) as { status: number; description: string; data: any } };
  }

  /** A GET that answers the raw bytes and headers (files). */
  async fetchRaw(path: string) {
    const res = await fetch(`${this.base}${path}`, { headers: { cookie: this.cookieHeader(), "x-forwarded-for": this.ip }, redirect: "manual" });
    return { http: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  private keepCookies(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [name, value] = pair.split("=");
      if (/Expires=Thu, 01 Jan 1970/i.test(c) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, decodeURIComponent(value));
    }
  }

  private cookieHeader(lang?: string) {
    const all = new Map(this.cookies);
    if (lang) all.set("lang", lang);
    return [...all].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
  }
}
