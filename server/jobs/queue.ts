// BullMQ on Redis when REDIS_URL is set, otherwise BullMQ's Postgres backend on the same database
// (the embedded default, STACK.md). Job code is the same on both.
import { Queue, Worker, createPostgresBackend, withBackend, type Processor, type WorkerOptions } from "bullmq";
import IORedis from "ioredis";
import { singleton } from "../lib/singleton";

type QueueCtor = new (name: string, opts: { connection: unknown; prefix?: string }) => Queue;
type WorkerCtor = new (name: string, processor: Processor, opts: WorkerOptions & { connection: unknown }) => Worker;

function backend() {
  return singleton("queue-backend", () => {
    const redisUrl = process.env.REDIS_URL;
    if (redisUrl) {
      const connection = new IORedis(redisUrl, { maxRetriesPerRequest: null });
      return {
        kind: "redis" as const,
        Queue: Queue as unknown as QueueCtor,
        Worker: Worker as unknown as WorkerCtor,
        connection,
        prefix: process.env.QUEUE_PREFIX ?? "zelin",
      };
    }
    const databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) throw new Error("Neither REDIS_URL nor DATABASE_URL is set: the job queue has nowhere to live.");
    const classes = withBackend(createPostgresBackend);
    // PGlite ignores the search_path start-up option, so BullMQ's tables live in public
    // (docs/decisions/0002-bullmq-postgres-backend-in-public.md).
    const connection = { connectionString: databaseUrl, schema: "public", migrate: true, max: 3 };
    return {
      kind: "postgres" as const,
      Queue: classes.Queue as unknown as QueueCtor,
      Worker: classes.Worker as unknown as WorkerCtor,
      connection,
      prefix: undefined,
    };
  });
}

export function getQueueBackendKind() {
  return backend().kind;
}

export function getQueue(name: string): Queue {
  return singleton(`queue:${name}`, () => {
    const b = backend();
    return new b.Queue(name, { connection: b.connection, ...(b.prefix ? { prefix: b.prefix } : {}) });
  });
}

export function createWorker(name: string, processor: Processor, opts: Omit<WorkerOptions, "connection"> = {}): Worker {
  const b = backend();
  // Without NOTIFY across PGlite connections a worker finds new jobs by polling: keep the wait short.
  const drainDelay = b.kind === "postgres" ? 1 : 5;
  return new b.Worker(name, processor, { drainDelay, ...opts, connection: b.connection, ...(b.prefix ? { prefix: b.prefix } : {}) });
}

/** Cheap reachability check for /healthz. */
export async function pingQueue(name = "platform"): Promise<boolean> {
  await getQueue(name).getJobCounts("waiting");
  return true;
}
