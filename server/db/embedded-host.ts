// The embedded default: one PGlite in DATA_DIR/pg, served on a loopback port so the web process,
// the worker and the bot gateway all reach the same database through ordinary Postgres drivers.
// With a data directory it records that address there while it runs (embedded-host-address.ts),
// so operator commands use the running host rather than open the directory a second time.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketHandler } from "@electric-sql/pglite-socket";
import { vector } from "@electric-sql/pglite-pgvector";
import { SessionQueue } from "./session-queue";
import { isAlive, removeHostAddress, writeHostAddress } from "./embedded-host-address";

export type EmbeddedHost = {
  url: string;
  port: number;
  db: PGlite;
  queue: SessionQueue;
  close: () => Promise<void>;
};

export async function startEmbeddedHost(opts: { dataDir?: string; port?: number; ownerIdleMs?: number } = {}): Promise<EmbeddedHost> {
  const dir = opts.dataDir ? path.join(opts.dataDir, "pg") : undefined;
  const release = dir ? lockDataDir(opts.dataDir!) : () => {};
  let db: PGlite;
  try {
    if (dir) fs.mkdirSync(dir, { recursive: true });
    // pgvector, so knowledge retrieval searches embeddings in SQL (migration 0005 creates it).
    db = await PGlite.create({ ...(dir ? { dataDir: dir } : {}), extensions: { vector } });
  } catch (err) {
    release();
    throw err;
  }
  const handlers = new Map<number, PGLiteSocketHandler>();
  const queue = new SessionQueue(db, (id) => void handlers.get(id)?.detach(true), opts.ownerIdleMs);

  const server = net.createServer((socket) => {
    // The handler only calls enqueue/clearQueueForHandler/clearTransactionIfNeeded/getQueueLength.
    const handler = new PGLiteSocketHandler({ queryQueue: queue as never, closeOnDetach: true });
    handlers.set(handler.handlerId, handler);
    const forget = () => handlers.delete(handler.handlerId);
    handler.addEventListener("close", forget);
    handler.addEventListener("error", forget);
    handler.attach(socket).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
  if (opts.dataDir) writeHostAddress(opts.dataDir, { pid: process.pid, port, url });

  return {
    url,
    port,
    db,
    queue,
    async close() {
      // First, so that no command reaches for a host that is going away.
      if (opts.dataDir) removeHostAddress(opts.dataDir);
      for (const h of handlers.values()) await h.detach(true).catch(() => {});
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
      release();
    },
  };
}

/** Two hosts on one data directory would corrupt it: refuse with a sentence instead. */
function lockDataDir(dataDir: string) {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, "embedded.lock");
  try {
    const pid = Number(fs.readFileSync(lockFile, "utf8"));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new Error(`Another Zelin (pid ${pid}) is using the data directory ${dataDir}. Stop it, or set DATA_DIR to another folder.`);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  fs.writeFileSync(lockFile, String(process.pid));
  return () => fs.rmSync(lockFile, { force: true });
}
