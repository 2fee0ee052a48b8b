// The fake OpenAI-compatible upstream (fake-openai.ts) in a process of its own, for benchmarks:
// with the fake inside the measuring process, its writes, the client's reads and the server
// under test compete for one event loop, and the figures measure that contention. Started with
// `startFakeOpenaiProcess()`; the child reports its base URL over IPC and takes behaviours the same way.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startFakeOpenai, type TKeyBehaviour } from "./fake-openai";

type TToChild = { type: "setBehaviour"; key: string; behaviour: TKeyBehaviour; seq: number } | { type: "requestsFor"; key: string; seq: number };
type TFromChild = { type: "ready"; base: string } | { type: "ack"; seq: number; value?: unknown };

/** Forks this file as the fake; resolves once it listens. */
export async function startFakeOpenaiProcess(opts: { execArgv?: string[] } = {}) {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--child"], {
    execArgv: ["--import", "tsx", ...(opts.execArgv ?? [])],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiters = new Map<number, (value: unknown) => void>();
  let seq = 0;
  const base = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the fake upstream exited with ${code}`)));
    child.on("message", (m: TFromChild) => {
      if (m.type === "ready") resolve(m.base);
      else waiters.get(m.seq)?.(m.value);
    });
  });
  const ask = (msg: Omit<TToChild, "seq"> & { type: TToChild["type"] }) =>
    new Promise<unknown>((resolve) => {
      const n = ++seq;
      waiters.set(n, (v) => {
        waiters.delete(n);
        resolve(v);
      });
      child.send({ ...msg, seq: n });
    });
  return {
    base,
    pid: child.pid,
    setBehaviour: (key: string, behaviour: TKeyBehaviour) => ask({ type: "setBehaviour", key, behaviour } as TToChild).then(() => undefined),
    requestsFor: (key: string) => ask({ type: "requestsFor", key } as TToChild) as Promise<number>,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

if (process.argv.includes("--child") && process.send) {
  // Only counts cross the process boundary: what it received and streamed is not kept.
  const fake = await startFakeOpenai({ record: false });
  process.on("message", (m: TToChild) => {
    if (m.type === "setBehaviour") fake.setBehaviour(m.key, m.behaviour);
    process.send!({ type: "ack", seq: m.seq, value: m.type === "requestsFor" ? fake.requestsFor(m.key) : undefined } satisfies TFromChild);
  });
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("disconnect", stop);
  process.send({ type: "ready", base: fake.base } satisfies TFromChild);
}
