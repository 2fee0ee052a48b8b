// Scheduled messages that send a picture or video of the owner's multimedia library (a rendered
// digital-human video), on every channel against its platform's loopback fake: the text goes first,
// then the item as the platform's own message (the fake saw the upload and the media message), a
// video as a link where the platform has no video message (DingTalk), a picture past the platform's
// limit as a link, and an item deleted since the schedule was saved leaves the text to go alone
// with the delivery saying so. The deliveries record the item they sent.
// Saving refuses another account's item, an id that is no library item and a deleted one as not
// found, and changes nothing; an empty text needs an item.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { types } from "wechaty";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForMocker, type MockWechat } from "../../bot-gateway/channels/wechat/mock-puppet";
import type { TTarget } from "../../bot-gateway/core/channel";
import { startGateway } from "../../bot-gateway/main";
import { deleteBot } from "../../server/bots/bot-delete.service";
import { listDeliveries, listSchedules, saveSchedule as saveParsed } from "../../server/bots/bot-schedules.service";
import { DELIVERY_MEDIA_MISSING, ZScheduleInput, type TBotChannel } from "../../server/bots/bots.schema";
import { getDb } from "../../server/db/client";
import { createVideo } from "../../server/digital/videos.service";
import { resetEnvCache } from "../../server/env";
import { dropSingleton } from "../../server/lib/singleton";
import { deleteMedia } from "../../server/media/media.service";
import { getFileStore } from "../../server/uploads/file-store";
import type { TTestActor } from "../helpers/apps";
import { botRow, makeBotOwner, makeTestBot, testGatewayOptions, waitFor } from "../helpers/bots";
import { makePng } from "../helpers/png";
import { startFakeDingtalk, type TFakeDingtalk } from "../fakes/fake-dingtalk";
import { makeFeishuApp, startFakeFeishu, type TFakeFeishu, type TFeishuSent } from "../fakes/fake-feishu";
import { startFakeWecom, type TFakeWecom } from "../fakes/fake-wecom";

const run = crypto.randomBytes(3).toString("hex");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zl-bot-schedule-media-"));
const SAMPLE_MP4 = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/media/sample.mp4"));
const PICTURE = makePng(96, 64, 40);
/** A picture past every platform's limit for pictures (10-20 MB): a PNG's header, then padding. */
const HUGE_PICTURE = Buffer.concat([makePng(8, 8), Buffer.alloc(21 * 1024 * 1024, 7)]);

const WECOM_APP = { corpId: `ww${run}sm`, agentId: "1000031", secret: `wecom-secret-${run}` };
const DING_APP = { clientId: `ding${run}sm`, clientSecret: `ding-secret-${run}` };
const FEISHU_APP = makeFeishuApp();

let wecom: TFakeWecom;
let dingtalk: TFakeDingtalk;
let feishu: TFakeFeishu;
let gateway: Awaited<ReturnType<typeof startGateway>>;
const mockers = new Map<string, MockWechat>();

type TItem = { id: string; url: string };
type TBotFixture = { owner: TTestActor; botId: string; agentId: string; video: TItem; picture: TItem; huge: TItem };
const fixtures = new Map<TBotChannel, TBotFixture>();

/** What a recipient got, oldest first: texts (link lines among them), and the pictures' and videos' bytes. */
type TSeen = { texts: string[]; pictures: Buffer[]; videos: Buffer[]; order: ("text" | "picture" | "video")[] };
type TRecipient = { target: TTarget; seen: () => Promise<TSeen> };

type TChannelCase = {
  channel: TBotChannel;
  /** Whether the platform takes a video as a message of its own (else it goes as a link). */
  video: boolean;
  credentials: () => Record<string, unknown>;
  connect: (botId: string) => Promise<void>;
  recipient: (botId: string, n: string) => TRecipient;
};

const paramOf = (b: Record<string, unknown>) => JSON.parse(String(b.msgParam)) as Record<string, string>;
const cardText = (s: TFeishuSent) =>
  ((s.content?.body?.elements ?? []) as { content?: unknown }[]).map((e) => (typeof e.content === "string" ? e.content : "")).join("\n");

const CASES: TChannelCase[] = [
  {
    channel: "wechat",
    video: true,
    credentials: () => ({}),
    async connect(botId) {
      const wx = await waitForMocker(botId, { timeoutMs: 20_000 });
      wx.login("Herald");
      mockers.set(botId, wx);
      await waitFor(async () => (await botRow(botId)).state === "online", 20_000, "the bot online");
    },
    recipient(botId, n) {
      const wx = mockers.get(botId)!;
      const contact = wx.contact(`fan ${n} ${run}`);
      return {
        target: { kind: "contact", id: contact.id, name: `fan ${n}` },
        async seen() {
          const files = await wx.sentFiles(contact.id);
          const texts = wx.said(contact.id);
          const pictures = files.filter((f) => f.type === types.Message.Image).map((f) => f.bytes);
          const videos = files.filter((f) => f.type === types.Message.Video).map((f) => f.bytes);
          // The mock keeps texts and files apart; the channel says the text before it sends the file.
          const kinds = files.map((f): TSeen["order"][number] => (f.type === types.Message.Video ? "video" : "picture"));
          return { texts, pictures, videos, order: [...texts.map((): TSeen["order"][number] => "text"), ...kinds] };
        },
      };
    },
  },
  {
    channel: "wecom",
    video: true,
    credentials: () => ({
      corp_id: WECOM_APP.corpId,
      agent_id: WECOM_APP.agentId,
      secret: WECOM_APP.secret,
      token: `tok${run}`,
      encoding_aes_key: `${run}${"s".repeat(43)}`.slice(0, 43),
    }),
    // WeCom sends through its API from the moment the credentials are accepted.
    connect: async (botId) => {
      await waitFor(async () => (await botRow(botId)).state === "to_be_associated", 20_000, "the bot's credentials accepted");
    },
    recipient(_botId, n) {
      const id = `wc-${n}-${run}`;
      return {
        target: { kind: "contact", id, name: n },
        async seen() {
          const mine = wecom.sent.filter((s) => s.to === id);
          const bytesOf = (kind: string) => mine.filter((s) => s.msgtype === kind).map((s) => wecom.media(s.mediaId!)!.bytes);
          return {
            texts: mine.filter((s) => s.msgtype === "markdown").map((s) => s.content),
            pictures: bytesOf("image"),
            videos: bytesOf("video"),
            order: mine.map((s) => (s.msgtype === "image" ? "picture" : s.msgtype === "video" ? "video" : "text")),
          };
        },
      };
    },
  },
  {
    channel: "dingtalk",
    video: false,
    credentials: () => ({ client_id: DING_APP.clientId, client_secret: DING_APP.clientSecret }),
    connect: async (botId) => {
      await waitFor(async () => (await botRow(botId)).state === "online", 20_000, "the bot online");
    },
    recipient(_botId, n) {
      const id = `staff-${n}-${run}`;
      return {
        target: { kind: "contact", id, name: n },
        async seen() {
          const mine = dingtalk.batchSends.filter((b) => (b.userIds as string[]).includes(id));
          return {
            texts: mine.filter((b) => b.msgKey === "sampleMarkdown").map((b) => paramOf(b).text),
            pictures: mine.filter((b) => b.msgKey === "sampleImageMsg").map((b) => dingtalk.media(paramOf(b).photoURL)!.bytes),
            videos: [],
            order: mine.map((b) => (b.msgKey === "sampleImageMsg" ? "picture" : "text")),
          };
        },
      };
    },
  },
  {
    channel: "feishu",
    video: true,
    credentials: () => ({ app_id: FEISHU_APP.appId, app_secret: FEISHU_APP.appSecret }),
    connect: async (botId) => {
      await waitFor(async () => (await botRow(botId)).state === "online", 20_000, "the bot online");
    },
    recipient() {
      const openId = `ou_${crypto.randomBytes(16).toString("hex")}`;
      return {
        target: { kind: "contact", id: openId },
        async seen() {
          const mine = feishu.sentTo(feishu.p2pChatId(FEISHU_APP.appId, openId));
          return {
            texts: mine.filter((s) => s.msgType === "interactive").map(cardText),
            pictures: mine.filter((s) => s.msgType === "image").map((s) => feishu.upload(s.content.image_key)!.bytes),
            videos: mine.filter((s) => s.msgType === "media").map((s) => feishu.upload(s.content.file_key)!.bytes),
            order: mine.map((s) => (s.msgType === "image" ? "picture" : s.msgType === "media" ? "video" : "text")),
          };
        },
      };
    },
  },
];

/** A library item of `owner` with its file in the store, as an upload or a render leaves one. */
async function libraryItem(owner: TTestActor, o: { kind: "image" | "video"; bytes: Buffer; name: string; poster?: Buffer }): Promise<TItem> {
  const base = `media/${owner.id}/${crypto.randomBytes(12).toString("hex")}`;
  const key = `${base}.${o.kind === "video" ? "mp4" : "png"}`;
  const mime = o.kind === "video" ? "video/mp4" : "image/png";
  await getFileStore().put(key, o.bytes, mime);
  const meta: Record<string, unknown> = {};
  if (o.poster) {
    meta.poster = `${base}.poster.png`;
    await getFileStore().put(meta.poster as string, o.poster, "image/png");
  }
  const row = await getDb().mediaItem.create({
    data: { ownerAccountId: owner.id, name: o.name, kind: o.kind, fileKey: key, mime, size: o.bytes.length, meta: meta as object },
    select: { id: true },
  });
  return { id: row.id, url: `/files/${key}` };
}

const saveSchedule = (owner: TTestActor, raw: Record<string, unknown>) => saveParsed(owner, ZScheduleInput.parse(raw));
const code = async (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: { code?: string; name?: string }) => e.code ?? e.name,
  );

/** A one-off to `target`, due now; resolves once its delivery is no longer sending. */
async function sendNow(
  f: TBotFixture,
  target: TTarget,
  o: { content: string; mediaItemId?: string | null; afterSave?: (scheduleId: string) => Promise<void> },
) {
  const base = { bot_id: f.botId, content: o.content, targets: [target], send_at: new Date().toISOString(), loop: "once" };
  let schedule;
  if (o.afterSave) {
    // Saved off, changed underneath, then switched on keeping its item.
    schedule = await saveSchedule(f.owner, { ...base, media_item_id: o.mediaItemId, enabled: false });
    await o.afterSave(schedule.id);
    schedule = await saveSchedule(f.owner, { ...base, schedule_id: schedule.id, enabled: true });
  } else {
    schedule = await saveSchedule(f.owner, { ...base, media_item_id: o.mediaItemId });
  }
  return waitFor(
    async () => {
      const d = await getDb().botDelivery.findFirst({ where: { scheduleId: schedule.id } });
      return d && d.state !== "sending" ? d : null;
    },
    20_000,
    "the scheduled delivery",
  );
}

const saved = Object.fromEntries(["WECOM_API_BASE", "DINGTALK_API_BASE", "DINGTALK_OAPI_BASE", "FEISHU_DOMAIN", "DATA_DIR"].map((k) => [k, process.env[k]]));

beforeAll(async () => {
  wecom = await startFakeWecom({ apps: [WECOM_APP] });
  dingtalk = await startFakeDingtalk(DING_APP);
  feishu = await startFakeFeishu({ apps: [FEISHU_APP] });
  Object.assign(process.env, { WECOM_API_BASE: wecom.base, ...dingtalk.env(), ...feishu.env(), DATA_DIR: dataDir });
  resetEnvCache();
  dropSingleton("file-store");
  for (const c of CASES) {
    const owner = await makeBotOwner();
    const bot = await makeTestBot(owner, { channel: c.channel, name: "Herald", credentials: c.credentials() });
    fixtures.set(c.channel, {
      owner,
      ...bot,
      video: await libraryItem(owner, { kind: "video", bytes: SAMPLE_MP4, name: "Digital human greeting.mp4", poster: makePng(64, 96) }),
      picture: await libraryItem(owner, { kind: "image", bytes: PICTURE, name: "Poster.png" }),
      huge: await libraryItem(owner, { kind: "image", bytes: HUGE_PICTURE, name: "Huge.png" }),
    });
  }
  gateway = await startGateway(testGatewayOptions());
  for (const c of CASES) await c.connect(fixtures.get(c.channel)!.botId);
}, 90_000);

afterAll(async () => {
  await gateway?.stop();
  for (const f of fixtures.values()) await deleteBot(f.owner, f.botId);
  await Promise.all([wecom?.close(), dingtalk?.close(), feishu?.close()]);
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
  dropSingleton("file-store");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.each(CASES)("a $channel bot's scheduled message with a library item", (c) => {
  it("sends the text, then the rendered video as the platform's video message (a link where it has none)", async () => {
    const f = fixtures.get(c.channel)!;
    const to = c.recipient(f.botId, "video");
    const delivery = await sendNow(f, to.target, { content: "This week's greeting", mediaItemId: f.video.id });
    expect(delivery).toMatchObject({ state: "sent", mediaItemId: f.video.id, error: null });
    const seen = await waitFor(async () => {
      const s = await to.seen();
      return s.order.length >= 2 ? s : null;
    });
    expect(seen.order[0]).toBe("text");
    expect(seen.texts[0]).toContain("This week's greeting");
    expect(seen.pictures).toEqual([]);
    if (c.video) {
      expect(seen.videos).toHaveLength(1);
      expect(seen.videos[0]!.equals(SAMPLE_MP4)).toBe(true);
      expect(seen.texts.join("\n")).not.toContain("/files/");
    } else {
      expect(seen.videos).toEqual([]);
      expect(seen.texts[1]).toContain(f.video.url);
    }
  });

  it("sends a library picture with no text as the platform's picture message", async () => {
    const f = fixtures.get(c.channel)!;
    const to = c.recipient(f.botId, "picture");
    const delivery = await sendNow(f, to.target, { content: "", mediaItemId: f.picture.id });
    expect(delivery).toMatchObject({ state: "sent", mediaItemId: f.picture.id, content: "" });
    const seen = await waitFor(async () => {
      const s = await to.seen();
      return s.pictures.length ? s : null;
    });
    expect(seen.order).toEqual(["picture"]);
    expect(seen.pictures[0]!.equals(PICTURE)).toBe(true);
  });

  it("sends a picture past the platform's limit as a link after the text", async () => {
    const f = fixtures.get(c.channel)!;
    const to = c.recipient(f.botId, "huge");
    const delivery = await sendNow(f, to.target, { content: "Too big to attach", mediaItemId: f.huge.id });
    expect(delivery).toMatchObject({ state: "sent", mediaItemId: f.huge.id });
    const seen = await waitFor(async () => {
      const s = await to.seen();
      return s.texts.length >= 2 ? s : null;
    });
    expect(seen.texts[0]).toContain("Too big to attach");
    expect(seen.texts[1]).toContain(f.huge.url);
    expect(seen.pictures).toEqual([]);
  });

  it("sends the text alone when the item was deleted since, and the delivery notes it", async () => {
    const f = fixtures.get(c.channel)!;
    const doomed = await libraryItem(f.owner, { kind: "image", bytes: makePng(16, 16), name: "Soon gone.png" });
    const to = c.recipient(f.botId, "deleted");
    const delivery = await sendNow(f, to.target, {
      content: "The text still goes",
      mediaItemId: doomed.id,
      afterSave: async () => void (await deleteMedia(f.owner, { id: doomed.id })),
    });
    expect(delivery).toMatchObject({ state: "sent", mediaItemId: doomed.id, error: DELIVERY_MEDIA_MISSING });
    const seen = await waitFor(async () => {
      const s = await to.seen();
      return s.texts.length ? s : null;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await to.seen()).order).toEqual(["text"]);
    expect(seen.texts[0]).toContain("The text still goes");
    const view = (await listDeliveries(f.owner, f.botId)).find((d) => d.id === delivery.id)!;
    expect(view).toMatchObject({ media_item_id: doomed.id, error: DELIVERY_MEDIA_MISSING, state: "sent" });
    const events = await getDb().botEvent.findMany({ where: { botId: f.botId, kind: "media_missing" } });
    expect(events.length).toBeGreaterThan(0);
  });
});

describe("saving a schedule with a library item", () => {
  const later = () => new Date(Date.now() + 86_400_000).toISOString();
  const input = (f: TBotFixture, more: Record<string, unknown> = {}) => ({
    bot_id: f.botId,
    content: "Morning",
    targets: [{ kind: "contact", id: "c1" }],
    send_at: later(),
    loop: "once",
    ...more,
  });
  const rowsOf = (botId: string) =>
    getDb().botSchedule.findMany({ where: { botId }, orderBy: { id: "asc" }, select: { id: true, content: true, mediaItemId: true, updatedAt: true } });

  it("shows the item on the schedule, keeps it when left out, and clears it with null", async () => {
    const f = fixtures.get("wecom")!;
    const made = await saveSchedule(f.owner, input(f, { media_item_id: f.video.id, content: "" }));
    expect(made.media).toEqual({
      id: f.video.id,
      kind: "video",
      name: "Digital human greeting.mp4",
      url: f.video.url,
      thumbnail_url: expect.stringMatching(/\.poster\.png$/),
    });
    const kept = await saveSchedule(f.owner, input(f, { schedule_id: made.id, content: "Now with words" }));
    expect(kept.media?.id).toBe(f.video.id);
    const listed = (await listSchedules(f.owner, f.botId)).find((s) => s.id === made.id)!;
    expect(listed.media).toMatchObject({ id: f.video.id, kind: "video" });
    const cleared = await saveSchedule(f.owner, input(f, { schedule_id: made.id, media_item_id: null }));
    expect(cleared.media).toBeNull();
    expect((await getDb().botSchedule.findUniqueOrThrow({ where: { id: made.id } })).mediaItemId).toBeNull();
    const picture = await saveSchedule(f.owner, input(f, { media_item_id: f.picture.id }));
    expect(picture.media).toMatchObject({ id: f.picture.id, kind: "image", thumbnail_url: f.picture.url });
  });

  it("refuses another account's item, an id that is no library item and a deleted item as not found, saving nothing", async () => {
    const f = fixtures.get("wecom")!;
    const other = fixtures.get("feishu")!;
    const render = await createVideo({ id: f.owner.id }, { name: "A render project" });
    const deleted = await libraryItem(f.owner, { kind: "image", bytes: makePng(8, 8), name: "Gone.png" });
    await deleteMedia(f.owner, { id: deleted.id });
    const existing = await saveSchedule(f.owner, input(f, { media_item_id: f.picture.id }));
    const before = await rowsOf(f.botId);
    for (const id of [other.picture.id, other.video.id, `cm${run}nosuchitem0000`, render.id, f.agentId, deleted.id]) {
      expect(await code(saveSchedule(f.owner, input(f, { media_item_id: id }))), id).toBe("not_found");
      expect(await code(saveSchedule(f.owner, input(f, { schedule_id: existing.id, content: "changed", media_item_id: id }))), id).toBe("not_found");
    }
    expect(await rowsOf(f.botId)).toEqual(before);
    expect(await code(saveSchedule(other.owner, input(other, { media_item_id: f.video.id })))).toBe("not_found");
  });

  it("needs words or an item: an empty text with no item is refused on the content field", async () => {
    const f = fixtures.get("wecom")!;
    for (const more of [{ content: "" }, { content: "   ", media_item_id: null }]) {
      const parsed = ZScheduleInput.safeParse(input(f, more));
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues).toEqual([expect.objectContaining({ path: ["content"], message: "bots:validation.schedule_content_or_media" })]);
    }
    const before = await rowsOf(f.botId);
    // An edit that keeps the item may leave the words out; one whose item is gone may not.
    const withItem = await saveSchedule(f.owner, input(f, { media_item_id: f.picture.id }));
    expect(await code(saveParsed(f.owner, { ...ZScheduleInput.parse(input(f, { schedule_id: withItem.id })), content: "" }))).toBe("ok");
    await saveSchedule(f.owner, input(f, { schedule_id: withItem.id, media_item_id: null }));
    expect(await code(saveParsed(f.owner, { ...ZScheduleInput.parse(input(f, { schedule_id: withItem.id })), content: "" }))).toBe("ZodError");
    expect((await rowsOf(f.botId)).length).toBe(before.length + 1);
  });
});
