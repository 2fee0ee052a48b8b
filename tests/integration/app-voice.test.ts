// An app's voice and image input and voice output (H5): a recorded clip transcribed by a
// voice model on the fake upstream, refused (nothing sent) without a voice model or when the app
// takes no voice; a reply spoken as MP3; a visitor's picture stored and its URL sent with a
// message reaching the model as content parts, a foreign picture URL refused.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { ERROR_CODES } from "../../server/errors/codes";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import { FAKE_MP3 } from "../fakes/fake-openai";
import { Browser } from "../helpers/api-client";
import { createTestApp } from "../helpers/apps";
import { contentOf, dataOf, makeAgent, makeUser, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";
import { makePng } from "../helpers/png";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";

const h = useChatHarness();
const base = () => h.api.base;
let ip = 0;
const uid = () => crypto.randomBytes(4).toString("hex");

function makeVisitor(): TUser {
  const browser = new Browser(base(), `10.77.${Math.floor(++ip / 250)}.${ip % 250}`);
  browser.cookies.set("zl_visitor", crypto.randomBytes(16).toString("hex"));
  browser.cookies.set("lang", "en");
  return { id: "", browser, actor: { id: "", roles: [], enterpriseId: null } };
}

/** An on-shelf app on the fake upstream with these modes. */
async function makeApp(input: Record<string, unknown>) {
  const owner = await makeUser(base());
  const agent = await makeAgent(h, owner, { publish: true });
  const { appId } = await createTestApp({ owner: { id: owner.id, roles: [], enterpriseId: null }, agentId: agent.agentId, input: input as never });
  return { appId, key: agent.key };
}

/** A voice model (kind voice) with one channel on the fake; its key tells its requests apart. */
async function makeVoiceModel() {
  const modelKey = `whisper-${uid()}`;
  const key = `sk-voice-${uid()}`;
  await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "语音", kind: "voice", upstream_model: modelKey }));
  await createChannel(ZCreateChannelInput.parse({ name: `ch ${modelKey}`, type: "openai", base_url: h.fake.base, key, models: [modelKey], weight: 1 }));
  return { modelKey, key };
}

const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]), Buffer.from("B\x82\x84webm"), crypto.randomBytes(64)]);
const transcribe = (who: TUser, appId: string, bytes: Uint8Array = WEBM) =>
  who.browser.upload("/api/v2/app/transcribe", { fields: { app_id: appId }, files: { file: { bytes, filename: "voice.webm", type: "audio/webm" } } });
const voiceModels = () => getDb().model.findMany({ where: { kind: "voice", enabled: true }, select: { id: true } });

describe("app voice", () => {
  it("refuses transcription without a voice model, nothing sent upstream", async () => {
    // Other runs' voice models are switched off for this test and back on after it.
    const enabled = await voiceModels();
    await getDb().model.updateMany({ where: { id: { in: enabled.map((m) => m.id) } }, data: { enabled: false } });
    try {
      const { appId } = await makeApp({ input_modes: ["text", "voice"] });
      const before = h.fake.audio.length;
      const r = await transcribe(makeVisitor(), appId);
      expect(r.http).toBe(503);
      expect(r.body.status).toBe(ERROR_CODES.voice_unavailable.status);
      expect(r.body.description).toMatch(/voice/i);
      expect(h.fake.audio.length).toBe(before);
    } finally {
      await getDb().model.updateMany({ where: { id: { in: enabled.map((m) => m.id) } }, data: { enabled: true } });
    }
  });

  it("transcribes a clip through the voice model: the fake receives the audio and the model name", async () => {
    const { modelKey, key } = await makeVoiceModel();
    const { appId } = await makeApp({ input_modes: ["text", "voice"] });
    h.fake.setTranscript("你好，世界");
    const r = await transcribe(makeVisitor(), appId);
    expect(r.body.status).toBe(200);
    expect(r.body.data).toEqual({ text: "你好，世界" });
    const got = h.fake.audio.filter((a) => a.key === key);
    // Several voice models may exist from earlier runs; this one's channel was asked, or another's.
    const last = h.fake.audio[h.fake.audio.length - 1];
    expect(last.kind).toBe("transcription");
    expect(last.file?.equals(WEBM)).toBe(true);
    expect(last.filename).toBe("voice.webm");
    if (got.length) expect(got[0].model).toBe(modelKey);
    else expect(last.model).toMatch(/^whisper-/);
  });

  it("refuses transcription for an app without voice input, and a clip that is not audio", async () => {
    await makeVoiceModel();
    const { appId } = await makeApp({ input_modes: ["text"] });
    const before = h.fake.audio.length;
    const r = await transcribe(makeVisitor(), appId);
    expect(r.body.status).toBe(ERROR_CODES.no_permission.status);
    const voiceApp = await makeApp({ input_modes: ["text", "voice"] });
    const bad = await transcribe(makeVisitor(), voiceApp.appId, makePng(400, 400));
    expect(bad.body.status).toBe(ERROR_CODES.file_type_not_allowed.status);
    expect(h.fake.audio.length).toBe(before);
  });

  it("speaks a reply as MP3 in the app's speaker; refused for an app without voice output", async () => {
    await makeVoiceModel();
    const { appId } = await makeApp({ output_modes: ["text", "voice"], speaker: "nova" });
    const visitor = makeVisitor();
    const res = await fetch(`${base()}/api/v2/app/speech`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "zl_csrf=t; lang=en", "x-csrf-token": "t" },
      body: JSON.stringify({ app_id: appId, text: "Hello there" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    expect(Buffer.from(await res.arrayBuffer()).equals(FAKE_MP3)).toBe(true);
    const last = h.fake.audio[h.fake.audio.length - 1];
    expect(last).toMatchObject({ kind: "speech", body: { input: "Hello there", voice: "nova" } });

    const textOnly = await makeApp({ output_modes: ["text"] });
    const before = h.fake.audio.length;
    const refused = await visitor.browser.call("/api/v2/app/speech", { body: { app_id: textOnly.appId, text: "Hello" } });
    expect(refused.body.status).toBe(ERROR_CODES.no_permission.status);
    const tooLong = await visitor.browser.call("/api/v2/app/speech", { body: { app_id: appId, text: "x".repeat(1001) } });
    expect(tooLong.body.status).toBe(ERROR_CODES.validation_failed.status);
    expect(h.fake.audio.length).toBe(before);
  });
});

describe("app images", () => {
  it("stores a visitor's picture and sends it with a message as content parts", async () => {
    const { appId, key } = await makeApp({ input_modes: ["text", "image"] });
    const visitor = makeVisitor();
    const png = makePng(400, 300);
    const up = await visitor.browser.upload("/api/v2/app/image", {
      fields: { app_id: appId },
      files: { file: { bytes: png, filename: "a.png", type: "image/png" } },
    });
    expect(up.body.status).toBe(200);
    const url = up.body.data.url as string;
    expect(url).toMatch(new RegExp(`^/files/images/app/${appId}/`));
    const served = await visitor.browser.fetchRaw(url);
    expect(served.http).toBe(200);

    const r = await sendSse(base(), visitor, { app_id: appId, content: "what is this?", images: [url] }, { path: "/api/v2/app/send_message/sse" });
    expect(contentOf(r)).toBe("word0 word1 word2 ");
    const body = h.fake.receivedFor(key).at(-1)!.body;
    const user = body.messages.filter((m: { role: string }) => m.role === "user").at(-1);
    expect(user.content[0]).toEqual({ type: "text", text: expect.stringContaining("what is this?") });
    expect(user.content[1].type).toBe("image_url");
    expect(user.content[1].image_url.url).toBe(`data:image/png;base64,${Buffer.from(png).toString("base64")}`);

    // Regenerating the answer shows the model the picture again.
    const dialogueId = (dataOf(r, "message")[0] as { dialogue_id: string }).dialogue_id;
    const firstAnswerId = (dataOf(r, "close")[0] as { id: string }).id;
    const again = await sendSse(
      base(),
      visitor,
      { app_id: appId, dialogue_id: dialogueId, regenerate_message_id: firstAnswerId },
      { path: "/api/v2/app/send_message/sse" },
    );
    expect(contentOf(again)).toBe("word0 word1 word2 ");
    const regenerated = h.fake
      .receivedFor(key)
      .at(-1)!
      .body.messages.filter((m: { role: string }) => m.role === "user")
      .at(-1);
    expect(regenerated.content[0]).toEqual({ type: "text", text: expect.stringContaining("what is this?") });
    expect(regenerated.content[1].image_url.url).toBe(`data:image/png;base64,${Buffer.from(png).toString("base64")}`);

    // A text-only turn keeps its plain string content.
    await sendSse(base(), visitor, { app_id: appId, dialogue_id: dialogueId, content: "and now?" }, { path: "/api/v2/app/send_message/sse" });
    const plain = h.fake
      .receivedFor(key)
      .at(-1)!
      .body.messages.filter((m: { role: string }) => m.role === "user")
      .at(-1);
    expect(typeof plain.content).toBe("string");

    // The question keeps its picture: stored with the message and given back by the dialogue's history.
    const view = await visitor.browser.call(`/api/v2/app/dialogues/${dialogueId}`);
    expect(view.body.data.messages.map((m: { role: string; content: string; images: string[] }) => [m.role, m.content, m.images])).toEqual([
      ["user", "what is this?", [url]],
      ["assistant", "word0 word1 word2 ", []],
      ["assistant", "word0 word1 word2 ", []],
      ["user", "and now?", []],
      ["assistant", "word0 word1 word2 ", []],
    ]);
  });

  it("limits a visitor's picture uploads per minute (20), another visitor unaffected", async () => {
    const { appId } = await makeApp({ input_modes: ["text", "image"] });
    const visitor = makeVisitor();
    const post = (who: TUser) =>
      who.browser.upload("/api/v2/app/image", {
        fields: { app_id: appId },
        files: { file: { bytes: Buffer.from("not a picture at all"), type: "image/png" } },
      });
    // The window is a fixed minute: start clear of its edge so all 21 hits fall in one.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 8000) await new Promise((r) => setTimeout(r, left + 50));
    for (let i = 0; i < 20; i++) expect((await post(visitor)).body.status).toBe(ERROR_CODES.file_type_not_allowed.status);
    const limited = await post(visitor);
    expect(limited.http).toBe(429);
    expect(limited.body.status).toBe(ERROR_CODES.rate_limited.status);
    expect((await post(makeVisitor())).body.status).toBe(ERROR_CODES.file_type_not_allowed.status);
  });

  it("the offline channel answers a message with pictures as it answers any other", async () => {
    const { appId } = await createTestApp({ input: { input_modes: ["text", "image"] } as never });
    const visitor = makeVisitor();
    const up = await visitor.browser.upload("/api/v2/app/image", {
      fields: { app_id: appId },
      files: { file: { bytes: makePng(400, 300), type: "image/png" } },
    });
    const r = await sendSse(base(), visitor, { app_id: appId, content: "hello there", images: [up.body.data.url] }, { path: "/api/v2/app/send_message/sse" });
    expect(contentOf(r)).toBe("I only answer questions about Zelin.");
  });

  it("refuses a non-image, an app without image input, and a foreign picture URL (nothing asked upstream)", async () => {
    const { appId, key } = await makeApp({ input_modes: ["text", "image"] });
    const visitor = makeVisitor();
    const notImage = await visitor.browser.upload("/api/v2/app/image", {
      fields: { app_id: appId },
      files: { file: { bytes: Buffer.from("just some text here"), filename: "a.png", type: "image/png" } },
    });
    expect(notImage.body.status).toBe(ERROR_CODES.file_type_not_allowed.status);

    const textApp = await makeApp({ input_modes: ["text"] });
    const refused = await visitor.browser.upload("/api/v2/app/image", {
      fields: { app_id: textApp.appId },
      files: { file: { bytes: makePng(400, 300), type: "image/png" } },
    });
    expect(refused.body.status).toBe(ERROR_CODES.no_permission.status);

    // A picture stored for another app, an outside URL, and images to an app without image input.
    const other = await visitor.browser.upload("/api/v2/app/image", {
      fields: { app_id: (await makeApp({ input_modes: ["text", "image"] })).appId },
      files: { file: { bytes: makePng(400, 300), type: "image/png" } },
    });
    expect(other.body.status).toBe(200);
    const before = h.fake.requestsFor(key);
    const dialogues = await getDb().dialogue.count({ where: { appId } });
    for (const images of [[other.body.data.url], ["https://evil.example/x.png"], [`/files/images/app/${appId}/../../avatars/x.png`]]) {
      const r = await sendSse(base(), visitor, { app_id: appId, content: "look", images }, { path: "/api/v2/app/send_message/sse" });
      expect((dataOf(r, "error")[0] as { status: number }).status).toBe(ERROR_CODES.validation_failed.status);
    }
    const textSend = await sendSse(
      base(),
      visitor,
      { app_id: textApp.appId, content: "look", images: [other.body.data.url] },
      { path: "/api/v2/app/send_message/sse" },
    );
    expect((dataOf(textSend, "error")[0] as { status: number }).status).toBe(ERROR_CODES.no_permission.status);
    expect(h.fake.requestsFor(key)).toBe(before);
    expect(await getDb().dialogue.count({ where: { appId } })).toBe(dialogues);
  });
});
