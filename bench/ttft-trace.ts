// Stage stamps of each chat turn inside the web process, for `BENCH_TRACE=1 npm run bench -- ttft`
// (loaded into every web process and worker with --import). No code of the app is touched: the
// stamps come from node:http, undici's diagnostics channels and the response's writes, and each
// turn's database round trips are counted on node-postgres (roughly: a cache's refresh timer started
// inside a turn counts its queries to that turn while it lasts). Every few seconds the process writes
// what it has to <BENCH_TRACE_DIR>/trace-<pid>.json, which bench/ttft.ts summarises.
import { AsyncLocalStorage } from "node:async_hooks";
import dc from "node:diagnostics_channel";
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";

/** at: epoch ms, comparable across the web's workers; marks: ms after it. */
export type TTurnTrace = { at: number; inflight: number; marks: Record<string, number>; queries: number };
export type TTraceFile = { turns: TTurnTrace[]; loopDelay: Array<{ at: number; p50: number; p99: number }> };

const now = () => performance.timeOrigin + performance.now();

const dir = process.env.BENCH_TRACE_DIR;
if (dir) install(dir);

function install(outDir: string) {
  const als = new AsyncLocalStorage<TTurnTrace>();
  const turns: TTurnTrace[] = [];
  const loopDelay: TTraceFile["loopDelay"] = [];
  let inflight = 0;
  const mark = (trace: TTurnTrace | undefined, stage: string) => {
    if (trace && !(stage in trace.marks)) trace.marks[stage] = now() - trace.at;
  };

  const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    if (event !== "request" || !req.url?.includes("send_message")) return emit.call(this, event, ...args);
    const trace: TTurnTrace = { at: now(), inflight: ++inflight, marks: {}, queries: 0 };
    turns.push(trace);
    let writes = 0;
    const write = res.write;
    // The first write is the turn's ids (after its charge and rows), the second its first text.
    res.write = function (this: http.ServerResponse, ...w: unknown[]) {
      mark(trace, ++writes === 1 ? "ids" : writes === 2 ? "first_text" : "later");
      return (write as (...a: unknown[]) => boolean).apply(this, w);
    } as typeof res.write;
    res.on("close", () => {
      inflight--;
      mark(trace, "end");
    });
    return als.run(trace, () => emit.call(this, event, ...args));
  } as typeof http.Server.prototype.emit;

  const requests = new WeakMap<object, TTurnTrace>();
  dc.subscribe("undici:request:create", (m) => {
    const trace = als.getStore();
    if (!trace) return;
    requests.set((m as { request: object }).request, trace);
    mark(trace, "upstream_request");
  });
  dc.subscribe("undici:client:beforeConnect", () => mark(als.getStore(), "connect_begin"));
  dc.subscribe("undici:client:connected", () => mark(als.getStore(), "connected"));
  dc.subscribe("undici:client:sendHeaders", (m) => mark(requests.get((m as { request: object }).request), "upstream_sent"));
  dc.subscribe("undici:request:headers", (m) => mark(requests.get((m as { request: object }).request), "upstream_headers"));

  const pg = createRequire(path.join(process.cwd(), "package.json"))("pg") as { Client: { prototype: { query: (...a: unknown[]) => unknown } } };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, ...a: unknown[]) {
    const trace = als.getStore();
    if (trace && !("end" in trace.marks)) trace.queries++;
    return query.apply(this, a);
  };

  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  setInterval(() => {
    loopDelay.push({ at: now(), p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6 });
    delay.reset();
  }, 1000).unref();
  setInterval(() => fs.writeFileSync(path.join(outDir, `trace-${process.pid}.json`), JSON.stringify({ turns, loopDelay } satisfies TTraceFile)), 2000).unref();
}
