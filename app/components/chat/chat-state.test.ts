import { describe, expect, it } from "vitest";
import { buildDisplayRows, chatReducer, INITIAL_CHAT, isReasoningOpen, type TChatState } from "./chat-state";

const msg = (content: string, reasoning = "", extra: Record<string, unknown> = {}) => ({
  event: "message",
  data: JSON.stringify({ id: "r1", dialogue_id: "d1", choices: [{ message: { content, reasoning_content: reasoning } }], ...extra }),
});
const ev = (event: string, data: unknown) => ({ event, data: typeof data === "string" ? data : JSON.stringify(data) });

function run(events: { event: string; data: string }[], start: TChatState = INITIAL_CHAT) {
  let state = chatReducer(start, { type: "send", userKey: "u", assistantKey: "a", content: "hello" });
  const seen: TChatState[] = [];
  for (const event of events) {
    state = chatReducer(state, { type: "event", key: "a", event });
    seen.push(state);
  }
  return { state, seen, reply: state.messages.find((m) => m.key === "a")! };
}

describe("chatReducer", () => {
  it("adds the question and a streaming reply", () => {
    const state = chatReducer(INITIAL_CHAT, { type: "send", userKey: "u", assistantKey: "a", content: "hello" });
    expect(state.messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ["user", "hello", "done"],
      ["assistant", "", "streaming"],
    ]);
  });

  it("takes the ids from the first event, then reasoning deltas, then content deltas; the reasoning block closes when content starts", () => {
    const { seen, reply, state } = run([msg(""), msg("", "think "), msg("", "more"), msg("Hel"), msg("lo")]);
    expect(seen[0].dialogueId).toBe("d1");
    expect(seen[0].messages[1].id).toBe("r1");
    expect(isReasoningOpen(seen[0].messages[1])).toBe(false);
    expect(isReasoningOpen(seen[2].messages[1])).toBe(true);
    expect(isReasoningOpen(seen[3].messages[1])).toBe(false);
    expect(reply.reasoning).toBe("think more");
    expect(reply.content).toBe("Hello");
    expect(reply.status).toBe("streaming");
    expect(state.dialogueId).toBe("d1");
  });

  it("records tool steps in order", () => {
    const { reply } = run([
      msg(""),
      ev("function", { id: "r1", dialogue_id: "d1", name: "current_time", type: "plugin", params: { timezone: "UTC" } }),
      ev("function", { name: "python_interpreter", type: "code", params: { code: "print(1)" } }),
      msg("It is noon"),
    ]);
    expect(reply.functions).toEqual([
      { id: "r1", name: "current_time", type: "plugin", params: { timezone: "UTC" } },
      { id: undefined, name: "python_interpreter", type: "code", params: { code: "print(1)" } },
    ]);
    expect(reply.content).toBe("It is noon");
  });

  it("close ends the reply with its citations and gives the question its id", () => {
    const retrieve = [{ id: "p1", title: "Guide", text: "A passage" }];
    const { reply, state } = run([msg("Hi"), ev("close", { id: "r1", dialogue_id: "d1", user_message_id: "q1", retrieve, audio: null, usage: {} })]);
    expect(reply.status).toBe("done");
    expect(reply.retrieve).toEqual(retrieve);
    expect(state.messages[0].id).toBe("q1");
    expect(reply.audio).toBeUndefined();
  });

  it("close keeps the reply's spoken audio when the server read it aloud", () => {
    const { reply } = run([msg("Hi"), ev("close", { id: "r1", retrieve: [], audio: "/files/media/acc/speech/k.mp3" })]);
    expect(reply.audio).toBe("/files/media/acc/speech/k.mp3");
  });

  it("censor hides what was written, shows the message, and ignores later events", () => {
    const { reply } = run([msg("bad wo"), ev("censor", { censor_msg: "Output failed review" }), msg("rd"), ev("close", { id: "r1", retrieve: [] })]);
    expect(reply.status).toBe("censored");
    expect(reply.content).toBe("");
    expect(reply.notice).toBe("Output failed review");
  });

  it("error ends the reply with the envelope's description and status", () => {
    const { reply } = run([msg("part"), ev("error", { status: 110003, description: "Please log in", data: null })]);
    expect(reply.status).toBe("failed");
    expect(reply.notice).toBe("Please log in");
    expect(reply.errorStatus).toBe(110003);
    expect(reply.content).toBe("part");
  });

  it("a stopped reply keeps what arrived, and stopping a finished reply changes nothing", () => {
    const { state } = run([msg("partial")]);
    const stopped = chatReducer(state, { type: "end", key: "a", status: "stopped" });
    expect(stopped.messages[1]).toMatchObject({ status: "stopped", content: "partial" });
    expect(chatReducer(stopped, { type: "end", key: "a", status: "failed", notice: "x" }).messages[1].status).toBe("stopped");
  });

  it("feedback toggles by message id", () => {
    const { state } = run([msg("Hi"), ev("close", { id: "r1", retrieve: [] })]);
    const liked = chatReducer(state, { type: "feedback", id: "r1", feedback: "liked" });
    expect(liked.messages[1].feedback).toBe("liked");
    expect(chatReducer(liked, { type: "feedback", id: "r1", feedback: "none" }).messages[1].feedback).toBe("none");
  });

  it("loads stored messages, hiding a censored reply behind the notice", () => {
    const state = chatReducer(INITIAL_CHAT, {
      type: "load",
      dialogueId: "d9",
      censoredNotice: "cannot view",
      messages: [
        { id: "q", role: "user", content: "hi" },
        { id: "r", role: "assistant", content: "secret", status: "censored", feedback: "disliked" },
      ],
    });
    expect(state.dialogueId).toBe("d9");
    expect(state.messages[1]).toMatchObject({ content: "", notice: "cannot view", feedback: "disliked", status: "censored" });
  });

  it("keeps a question's pictures, sent and loaded again", () => {
    const pictures = ["/files/images/app/a1/x.png"];
    const sent = chatReducer(INITIAL_CHAT, { type: "send", userKey: "u", assistantKey: "a", content: "look", images: pictures });
    expect(sent.messages.map((m) => m.images)).toEqual([pictures, undefined]);
    const loaded = chatReducer(INITIAL_CHAT, {
      type: "load",
      dialogueId: "d1",
      censoredNotice: "",
      messages: [
        { id: "q", role: "user", content: "look", images: pictures },
        { id: "r", role: "assistant", content: "a picture", images: [] },
      ],
    });
    expect(loaded.messages.map((m) => m.images)).toEqual([pictures, undefined]);
  });
});

describe("buildDisplayRows", () => {
  it("folds regenerated replies into the row of the reply they replace", () => {
    const state = chatReducer(INITIAL_CHAT, {
      type: "load",
      dialogueId: "d",
      censoredNotice: "",
      messages: [
        { id: "q1", role: "user", content: "a" },
        { id: "r1", role: "assistant", content: "first" },
        { id: "r2", role: "assistant", content: "second", replaces_id: "r1" },
        { id: "q2", role: "user", content: "b" },
        { id: "r3", role: "assistant", content: "third" },
        { id: "r4", role: "assistant", content: "fourth", replaces_id: "r3" },
      ],
    });
    const rows = buildDisplayRows(state.messages);
    expect(rows.map((r) => r.versions.map((v) => v.id))).toEqual([["q1"], ["r1", "r2"], ["q2"], ["r3", "r4"]]);
  });
});

describe("a picture or video reply", () => {
  const progress = (state: string, value: number, kind = "video") =>
    ev("function", {
      id: "r1",
      dialogue_id: "d1",
      name: "media_generate",
      type: "progress",
      params: { arguments: { job_id: "j1", kind }, result: { state, progress: value } },
    });
  const media = [
    { kind: "video", url: "https://zelin.test/files/v.mp4", mime: "video/mp4", posterUrl: "https://zelin.test/files/v.jpg" },
    { kind: "image", url: "https://zelin.test/files/a.png", mime: "image/png", posterUrl: null },
  ];

  it("follows the job's progress in the reply, never as a tool step", () => {
    const { seen, reply } = run([msg(""), progress("queued", 0), progress("generating", 40), ev("function", { name: "current_time", params: {} })]);
    expect(seen[1].messages[1].generation).toEqual({ jobId: "j1", kind: "video", state: "queued", progress: 0 });
    expect(seen[2].messages[1].generation).toMatchObject({ state: "generating", progress: 40 });
    expect(reply.functions.map((f) => f.name)).toEqual(["current_time"]);
    expect(reply.status).toBe("streaming");
  });

  it("keeps the last good progress when a step cannot be read", () => {
    const { reply } = run([msg(""), progress("generating", 40), progress("succeed", 100)]);
    expect(reply.generation).toMatchObject({ state: "generating", progress: 40 });
    expect(reply.functions).toEqual([]);
  });

  it("close ends the progress and keeps the results, so the video's link plays with its poster", () => {
    const content = "[▶ 1](https://zelin.test/files/v.mp4)\n\n![2](https://zelin.test/files/a.png)";
    const { reply } = run([
      msg(""),
      progress("generating", 90),
      progress("done", 100),
      msg(content),
      ev("close", { id: "r1", retrieve: [], media, image: [media[1].url] }),
    ]);
    expect(reply.status).toBe("done");
    expect(reply.generation).toBeUndefined();
    expect(reply.functions).toEqual([]);
    expect(reply.content).toBe(content);
    expect(reply.media).toEqual([
      { kind: "video", url: "https://zelin.test/files/v.mp4", posterUrl: "https://zelin.test/files/v.jpg" },
      { kind: "image", url: "https://zelin.test/files/a.png", posterUrl: null },
    ]);
  });

  it("a reply that closes without media has none", () => {
    expect(run([msg("Hi"), ev("close", { id: "r1", retrieve: [] })]).reply.media).toBeUndefined();
  });

  it("a failed job ends the reply with the error's words, no tool step left behind", () => {
    const { reply } = run([
      msg(""),
      progress("failed_review", 100, "image"),
      ev("error", { status: 400, description: "The output failed review and cannot be viewed or downloaded" }),
    ]);
    expect(reply).toMatchObject({ status: "failed", notice: "The output failed review and cannot be viewed or downloaded", functions: [] });
  });

  it("a reply stopped while the job runs remembers the job, so the page can say it goes on", () => {
    const { state } = run([msg(""), progress("generating", 20)]);
    const stopped = chatReducer(state, { type: "end", key: "a", status: "stopped" });
    expect(stopped.messages[1]).toMatchObject({ status: "stopped", content: "", generation: { state: "generating", progress: 20 } });
  });

  it("a stored reply never lists the job's progress among its tool steps", () => {
    const loaded = chatReducer(INITIAL_CHAT, {
      type: "load",
      dialogueId: "d1",
      censoredNotice: "",
      messages: [
        {
          id: "r",
          role: "assistant",
          content: "![1](/files/a.png)",
          functions: [
            { name: "media_generate", type: "progress", params: { result: { state: "done", progress: 100 } } },
            { name: "web_search", params: {} },
          ],
        },
      ],
    });
    expect(loaded.messages[0].functions.map((f) => f.name)).toEqual(["web_search"]);
    expect(loaded.messages[0].generation).toBeUndefined();
  });
});
