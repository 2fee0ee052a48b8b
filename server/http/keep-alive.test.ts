import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { keepConnectionsAlive } from "./keep-alive";

// A real server on loopback and a raw client connection: whether the server has closed the idle
// connection, with no client-side keep-alive logic in the way.
let server: http.Server | null = null;
afterEach(async () => {
  if (server) await new Promise((r) => server!.close(r));
  server = null;
});

async function connectAfterOneRequest(idleMs: number) {
  server = http.createServer((_req, res) => res.end("ok"));
  keepConnectionsAlive(server, idleMs);
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const socket = net.connect((server.address() as AddressInfo).port, "127.0.0.1");
  const state = { closedAt: 0, answered: 0 };
  const answered = new Promise<void>((resolve) => {
    socket.on("data", () => {
      state.answered = performance.now();
      resolve();
    });
  });
  socket.on("close", () => (state.closedAt = performance.now()));
  socket.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n");
  await answered;
  return state;
}

const idle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("keep-alive", () => {
  it("keeps an idle connection for the time set, then closes it", async () => {
    const state = await connectAfterOneRequest(700);
    await idle(400);
    expect(state.closedAt).toBe(0);
    // Node waits a further second (its keep-alive buffer) before it closes.
    await idle(2000);
    expect(state.closedAt).toBeGreaterThan(0);
    expect(state.closedAt - state.answered).toBeGreaterThanOrEqual(650);
  });

  it("gives a request's headers at least the usual minute, and never less than the idle time", () => {
    const s = http.createServer();
    keepConnectionsAlive(s, 65_000);
    expect(s.keepAliveTimeout).toBe(65_000);
    expect(s.headersTimeout).toBe(66_000);
    keepConnectionsAlive(s, 5000);
    expect(s.headersTimeout).toBe(60_000);
  });
});
