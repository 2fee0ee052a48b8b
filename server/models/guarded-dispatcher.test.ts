import http from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { TGuardedAgent } from "../net/guarded-fetch";
import { createGuardedPools } from "./guarded-dispatcher";

let servers: http.Server[] = [];
let allowlist: string | undefined;
beforeEach(() => {
  allowlist = process.env.SSRF_ALLOWLIST;
});
afterEach(async () => {
  if (allowlist === undefined) delete process.env.SSRF_ALLOWLIST;
  else process.env.SSRF_ALLOWLIST = allowlist;
  for (const s of servers) await new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())));
  servers = [];
});

async function startServer() {
  const server = http.createServer((req, res) => req.resume().on("end", () => res.end("ok")));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

it("closes an evicted origin's pool with its spare connection, and keeps one pool per origin", async () => {
  const pools = createGuardedPools(1);
  const [a, b] = [await startServer(), await startServer()];
  // Loopback is private: these two origins are let through as an operator would list them.
  process.env.SSRF_ALLOWLIST = [a, b].map((u) => new URL(u).host).join(",");
  const first = pools.get(`${a}/v1`) as TGuardedAgent;
  expect(pools.get(`${a}/v2`)).toBe(first);
  await (await request(`${a}/v1/chat/completions`, { method: "POST", body: "{}", dispatcher: first })).body.text();
  await new Promise((r) => setTimeout(r, 100));
  expect(first.connector.spares()).toHaveLength(1);

  const second = pools.get(`${b}/v1`) as TGuardedAgent;
  expect(second).not.toBe(first);
  expect(first.connector.spares()).toEqual([]);
  expect(first.closed).toBe(true);
  // A later request for the evicted origin gets a new pool.
  expect(pools.get(`${a}/v1`)).not.toBe(first);
});
