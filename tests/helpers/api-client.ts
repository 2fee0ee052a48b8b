// A tiny HTTP client for integration tests: keeps cookies like a browser and echoes the CSRF
// cookie in the header, as our pages do.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { createApiRouter } from "../../server/http/api-router";
import { issueCsrfCookie } from "../../server/http/csrf";

export async function startApiServer() {
  const app = express();
  app.set("trust proxy", true);
  app.use(issueCsrfCookie);
  app.use("/api", createApiRouter());
  const server: Server = app.listen(0, "127.0.0.1");
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
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [name, value] = pair.split("=");
      if (/Expires=Thu, 01 Jan 1970/i.test(c) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, decodeURIComponent(value));
    }
    return { http: res.status, body: (await res.json().catch(() => null)) as { status: number; description: string; data: any } };
  }

  private cookieHeader(lang?: string) {
    const all = new Map(this.cookies);
    if (lang) all.set("lang", lang);
    return [...all].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
  }
}
