// A run followed live, as server-sent events: `status` (the run's status, why it ended, the node,
// whose turn the person's is), `message` (a message that is new or changed: a reply growing as the
// worker writes it), and `close` when the run has ended. The worker writes to the database, so
// this reads the run every POLL_MS and sends what changed; any web process can serve any run.
import type { Request, Response } from "express";
import { mapError } from "../errors/map-error";
import { setEventStreamHeaders } from "../http/event-stream";
import { getRequestLanguage } from "../http/request-context";
import type { TRunView } from "./workshops.schema";

const POLL_MS = 300;
const KEEPALIVE_MS = 15_000;
/** A reader left open this long is closed; the page reconnects and gets the run whole again. */
const MAX_OPEN_MS = 30 * 60_000;

export async function streamRunEvents(req: Request, res: Response, read: () => Promise<TRunView>) {
  let first: TRunView;
  try {
    first = await read();
  } catch (err) {
    const mapped = mapError(err, getRequestLanguage(req));
    return res.status(mapped.httpStatus).json(mapped.envelope);
  }
  setEventStreamHeaders(res);
  let open = true;
  res.on("close", () => (open = false));
  let lastWrite = Date.now();
  const send = (event: string, data: unknown) => {
    lastWrite = Date.now();
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const sent = new Map<string, string>();
  let status = "";
  const push = (view: TRunView) => {
    const { messages, ...rest } = view;
    const head = JSON.stringify(rest);
    if (head !== status) {
      status = head;
      send("status", rest);
    }
    for (const m of messages) {
      const key = `${m.status}|${m.content.length}|${m.instruction ?? ""}`;
      if (sent.get(m.id) === key) continue;
      sent.set(m.id, key);
      send("message", m);
    }
  };
  push(first);
  const started = Date.now();
  let view = first;
  while (open && view.status !== "ended" && Date.now() - started < MAX_OPEN_MS) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    try {
      view = await read();
    } catch {
      break;
    }
    push(view);
    if (Date.now() - lastWrite > KEEPALIVE_MS) {
      lastWrite = Date.now();
      res.write(": keepalive\n\n");
    }
  }
  if (open) {
    send("close", { status: view.status, endReason: view.endReason });
    res.end();
  }
}
