import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Agent, request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { createWarmConnector, type TWarmConnector } from "./warm-connector";

/** A server that closes idle keep-alive connections after `keepAliveMs`, and says which connection (and when it was accepted) served each request. */
async function startServer(keepAliveMs: number) {
  const accepted = new Map<Socket, { n: number; at: number }>();
  const server = http.createServer((req, res) => {
    const conn = accepted.get(req.socket)!;
    req.resume();
    req.on("end", () => res.end(JSON.stringify(conn)));
  });
  server.on("connection", (socket) => accepted.set(socket, { n: accepted.size + 1, at: performance.now() }));
  server.keepAliveTimeout = keepAliveMs;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    connections: () => accepted.size,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

function makeAgent(timing: { warmWindowMs: number; spareMaxAgeMs: number }) {
  const connector: TWarmConnector = createWarmConnector({}, timing);
  const agent = new Agent({ connect: connector });
  cleanup.push(
    () => agent.close(),
    () => connector.close(),
  );
  return { agent, connector };
}

async function ask(url: string, agent: Agent) {
  const sent = performance.now();
  const res = await request(url, { method: "POST", body: "{}", dispatcher: agent });
  return { sent, ...((await res.body.json()) as { n: number; at: number }) };
}

describe("warm connector", () => {
  it("after the pooled connection has gone idle and closed, the next request goes out on a connection opened before it", async () => {
    const server = await startServer(100);
    cleanup.push(server.close);
    const { agent, connector } = makeAgent({ warmWindowMs: 60_000, spareMaxAgeMs: 2_000 });
    const first = await ask(server.url, agent);
    expect(first.n).toBe(1);
    await sleep(300); // the server has closed connection 1; the spare (2) is open
    expect(connector.spares()).toHaveLength(1);
    const second = await ask(server.url, agent);
    expect(second.n).toBe(2);
    expect(second.at).toBeLessThan(second.sent);
    // And a new spare replaces the one used.
    await sleep(50);
    expect(server.connections()).toBe(3);
    expect(connector.spares()).toHaveLength(1);
  });

  it("replaces a spare before it grows old, and stops once the origin has not been used for the window", async () => {
    const server = await startServer(5_000);
    cleanup.push(server.close);
    const { agent, connector } = makeAgent({ warmWindowMs: 500, spareMaxAgeMs: 100 });
    await ask(server.url, agent);
    await sleep(350);
    // The first spare and at least two replacements.
    expect(server.connections()).toBeGreaterThanOrEqual(4);
    await sleep(700);
    const settled = server.connections();
    expect(connector.spares()).toEqual([]);
    await sleep(300);
    expect(server.connections()).toBe(settled);
  });

  it("keeps no spare for an origin that refuses, and the request fails as it would without one", async () => {
    const server = await startServer(100);
    const { agent, connector } = makeAgent({ warmWindowMs: 60_000, spareMaxAgeMs: 2_000 });
    await ask(server.url, agent);
    await server.close();
    await sleep(50);
    expect(connector.spares()).toEqual([]);
    await expect(ask(server.url, agent)).rejects.toThrow();
  });

  it("closes its spares when closed", async () => {
    const server = await startServer(5_000);
    cleanup.push(server.close);
    const { agent, connector } = makeAgent({ warmWindowMs: 60_000, spareMaxAgeMs: 2_000 });
    await ask(server.url, agent);
    await sleep(50);
    expect(connector.spares()).toHaveLength(1);
    connector.close();
    expect(connector.spares()).toEqual([]);
  });
});
