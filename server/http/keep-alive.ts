// How long the web keeps a client's idle connection. Node closes one after 5 s by default: a load
// balancer that reuses its connections for longer (60 s on most) then sends a request on a socket
// Node is closing and answers the user 502, and a browser pausing between chat messages reconnects
// (TCP, TLS) on the way to its next first token. Kept longer than that, the client closes first.
import type { Server } from "node:http";

export function keepConnectionsAlive(server: Server, idleMs: number) {
  server.keepAliveTimeout = idleMs;
  // A request's headers may take the usual minute, but never less than the idle time, as Node's
  // guidance asks, so an idle connection is never cut as a slow request would be.
  server.headersTimeout = Math.max(60_000, idleMs + 1000);
}
