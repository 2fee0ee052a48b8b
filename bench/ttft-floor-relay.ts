// The bare relay of `npm run bench -- ttft-floor`: node:http in, undici out, each upstream read
// written on as it comes. No session, database, prompt or censor: what any Node relay pays. It runs
// as the web does on this machine: a worker per CPU behind node:cluster (WEB_CONCURRENCY=auto).
import cluster from "node:cluster";
import http from "node:http";
import os from "node:os";
import { Agent, request } from "undici";
import { keepConnectionsAlive } from "../server/http/keep-alive";

const upstream = process.argv[2];

if (cluster.isPrimary) {
  const workers = Array.from({ length: os.availableParallelism() }, () => cluster.fork());
  let listening = 0;
  // Every worker's listen(0) shares the one port the primary opened; it is reported once all listen.
  cluster.on("listening", (_worker, address) => {
    if (++listening === workers.length) process.send?.(address.port);
  });
  const stop = () => {
    for (const w of workers) w.process.kill();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("disconnect", stop);
} else {
  const dispatcher = new Agent();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      try {
        const answer = await request(`${upstream}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: String(req.headers.authorization) },
          body: Buffer.concat(chunks),
          dispatcher,
        });
        res.writeHead(answer.statusCode, { "content-type": "text/event-stream" });
        answer.body.on("data", (c: Buffer) => res.write(c));
        answer.body.on("end", () => res.end());
        answer.body.on("error", () => res.destroy());
      } catch {
        res.writeHead(502).end();
      }
    });
  });
  // Clients' idle connections kept as the web keeps them (HTTP_KEEP_ALIVE_MS's default).
  keepConnectionsAlive(server, 65_000);
  server.listen(0, "127.0.0.1");
}
