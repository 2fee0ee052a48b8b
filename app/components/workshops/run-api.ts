// The run page's calls: a developer's debug runs (/api/v1/workshop/runs) or a workshop app's
// consumer's runs (/api/v2/app/workshop/runs), the same shape either way; and the live events of
// a run, read from its server-sent event stream (`status`, `message`, `close`).
import { ApiError, apiRequest, getBrowserEnv, handlePlatformStatus } from "../../lib/api-client";
import { withTouser } from "../../lib/carry-query";
import { readErrorEnvelope, readSseBody } from "../../lib/sse-client";
import type { TRunMessageView, TRunView } from "../../../server/workshops/workshops.schema";

/** Whose run: the developer's debug run of a workshop, or a consumer's run of a workshop app. */
export type TRunMode = { kind: "debug"; workshopId: string } | { kind: "app"; appId: string };
export type TRunHead = Omit<TRunView, "messages">;

const baseOf = (mode: TRunMode) => (mode.kind === "debug" ? "/api/v1/workshop/runs" : "/api/v2/app/workshop/runs");
const runPath = (mode: TRunMode, runId: string, tail = "") => `${baseOf(mode)}/${encodeURIComponent(runId)}${tail}`;

export function startRun(mode: TRunMode, topic: string) {
  const subject = mode.kind === "debug" ? { workshop_id: mode.workshopId } : { app_id: mode.appId };
  return apiRequest<{ id: string }>(baseOf(mode), { body: { ...subject, topic }, json: true });
}

export const postRunMessage = (mode: TRunMode, runId: string, content: string) =>
  apiRequest<TRunView>(runPath(mode, runId, "/messages"), { body: { content }, json: true });

export const stopRun = (mode: TRunMode, runId: string) => apiRequest<TRunView>(runPath(mode, runId, "/stop"), { body: {}, json: true });

export type TRunEvents = {
  onStatus: (head: TRunHead) => void;
  onMessage: (message: TRunMessageView) => void;
};

/**
 * Follows the run until the server closes the stream on its end (answers true) or the stream
 * stops short of it (a reader the server closed after its longest wait, a lost connection:
 * answers false, and the caller reads again). A refusal (not found, not signed in) throws
 * ApiError with its localized description.
 */
export async function followRun(mode: TRunMode, runId: string, events: TRunEvents, signal: AbortSignal): Promise<boolean> {
  const env = getBrowserEnv();
  const res = await fetch(withTouser(runPath(mode, runId, "/events"), env.touser()), {
    headers: { Accept: "text/event-stream" },
    credentials: "same-origin",
    signal,
  });
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream") || !res.body) {
    const envelope = readErrorEnvelope(await res.text());
    handlePlatformStatus(envelope, env);
    throw new ApiError(envelope.status, envelope.description, envelope.data);
  }
  let closed = false;
  await readSseBody(res.body, (e) => {
    if (e.event === "close") closed = (JSON.parse(e.data) as { status?: string }).status === "ended";
    else if (e.event === "status") events.onStatus(JSON.parse(e.data) as TRunHead);
    else if (e.event === "message") events.onMessage(JSON.parse(e.data) as TRunMessageView);
  });
  return closed;
}

/** A message new or grown: merged by id, kept in the run's order. */
export function mergeMessage(list: TRunMessageView[], message: TRunMessageView): TRunMessageView[] {
  const at = list.findIndex((m) => m.id === message.id);
  if (at >= 0) return list.map((m, i) => (i === at ? message : m));
  return [...list, message].sort((a, b) => a.seq - b.seq);
}
