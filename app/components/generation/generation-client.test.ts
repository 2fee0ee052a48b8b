// The browser's EventSource stands in as a small class the test drives: which stream is opened, what
// each event does, and when it is closed.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TMediaJob } from "../../../server/media/generation.schema";
import { appEditorPath, followJobs, JOB_EVENTS_PATH } from "./generation-client";

class StubEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static opened: StubEventSource[] = [];
  readyState = StubEventSource.OPEN;
  onerror: (() => void) | null = null;
  private listeners = new Map<string, ((e: { data: string }) => void)[]>();
  constructor(readonly url: string) {
    StubEventSource.opened.push(this);
  }
  addEventListener(type: string, fn: (e: { data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.readyState = StubEventSource.CLOSED;
  }
  emit(type: string, data: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn({ data: JSON.stringify(data) });
  }
}

const job = (id: string, state: TMediaJob["state"], progress = 0): TMediaJob => ({
  id,
  kind: "image",
  state,
  progress,
  model: "m",
  prompt: "p",
  params: {},
  priceMicro: 1,
  chargedMicro: 0,
  errorCode: null,
  outputs: [],
  createdAt: "2026-01-01T00:00:00.000Z",
  finishedAt: null,
});

describe("following jobs over the event stream", () => {
  beforeEach(() => {
    StubEventSource.opened = [];
    (globalThis as { EventSource?: unknown }).EventSource = StubEventSource;
  });
  afterEach(() => {
    delete (globalThis as { EventSource?: unknown }).EventSource;
  });

  it("opens one stream naming every job, hands on each change, and closes once all are finished", () => {
    const seen: string[] = [];
    followJobs(["a", "b/c"], (j) => seen.push(`${j.id}:${j.state}:${j.progress}`));
    const [source] = StubEventSource.opened;
    expect(source.url).toBe(`${JOB_EVENTS_PATH}?ids=a,b%2Fc`);
    source.emit("job", job("a", "generating", 40));
    source.emit("job", job("a", "done", 100));
    expect(source.readyState).toBe(StubEventSource.OPEN);
    source.emit("job", job("b/c", "failed"));
    expect(seen).toEqual(["a:generating:40", "a:done:100", "b/c:failed:0"]);
    expect(source.readyState).toBe(StubEventSource.CLOSED);
  });

  it("hands on nothing after being stopped, and closes the stream", () => {
    const seen: string[] = [];
    const stop = followJobs(["a"], (j) => seen.push(j.id));
    stop();
    StubEventSource.opened[0].emit("job", job("a", "generating", 10));
    expect(seen).toEqual([]);
    expect(StubEventSource.opened[0].readyState).toBe(StubEventSource.CLOSED);
  });
});

describe("the editor an app's media goes to", () => {
  it("is the app form of its type", () => {
    expect(appEditorPath({ id: "x 1", type: "h5" })).toBe("/create_app?id=x%201");
    expect(appEditorPath({ id: "d", type: "digital_human" })).toBe("/create_app?id=d&type=digital_human");
    expect(appEditorPath({ id: "k", type: "api" })).toBe("/create_api?id=k");
  });
});
