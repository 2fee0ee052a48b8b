import type { Request, Response } from "express";
import { getQueueBackendKind, pingQueue } from "../jobs/queue";
import { getProcessStates, pingDatabase } from "../platform/platform.service";

async function check(fn: () => Promise<unknown>) {
  try {
    await fn();
    return "ok" as const;
  } catch {
    return "down" as const;
  }
}

export async function healthz(_req: Request, res: Response) {
  const [database, queue] = await Promise.all([check(() => pingDatabase()), check(() => pingQueue())]);
  const processes = database === "ok" ? await getProcessStates().catch(() => ({})) : {};
  const ok = database === "ok" && queue === "ok";
  res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "down", database, queue, queue_backend: getQueueBackendKind(), processes });
}
