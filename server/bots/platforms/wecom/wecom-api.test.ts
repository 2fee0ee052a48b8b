// WeCom's API client against the loopback WeCom (tests/fakes/fake-wecom.ts): the access token is
// fetched once and shared, renewed 5 minutes before it expires, refetched once when WeCom calls it
// stale, and WeCom's refusals come back as errors naming errcode and errmsg.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "../../../env";
import { startFakeWecom, type TFakeWecom } from "../../../../tests/fakes/fake-wecom";
import { makePng } from "../../../../tests/helpers/png";
import { getWecomAccessToken, sendWecomAppChat, sendWecomMessage, uploadWecomMedia, WecomApiError, type TWecomApp } from "./wecom-api";

let fake: TFakeWecom;
let n = 0;
const saved = process.env.WECOM_API_BASE;
/** A fresh app per test, so the process-wide token cache starts cold for it. */
let app: TWecomApp;

beforeAll(async () => {
  fake = await startFakeWecom({ apps: [], knownChats: ["chat-1"] });
  process.env.WECOM_API_BASE = fake.base;
  resetEnvCache();
});
afterAll(async () => {
  await fake.close();
  if (saved === undefined) delete process.env.WECOM_API_BASE;
  else process.env.WECOM_API_BASE = saved;
  resetEnvCache();
});
beforeEach(() => {
  n++;
  app = { corpId: `ww-api-${n}`, agentId: String(1000000 + n), secret: `secret-${n}` };
  fake.addApp(app);
  fake.state.tokenDelayMs = 0;
  fake.state.expiresIn = 7200;
});
afterEach(() => vi.useRealTimers());

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WecomApiError);
  return err as WecomApiError;
}

describe("the access token", () => {
  it("is fetched once for several sends, by concurrent callers too", async () => {
    const before = fake.tokenRequests;
    fake.state.tokenDelayMs = 150;
    const tokens = await Promise.all([1, 2, 3, 4, 5].map(() => getWecomAccessToken(app)));
    expect(new Set(tokens).size).toBe(1);
    for (const i of [1, 2, 3]) await sendWecomMessage(app, { touser: "zhangsan", msgtype: "markdown", content: `**${i}**` });
    expect(fake.tokenRequests - before).toBe(1);
    const mine = fake.sent.filter((s) => s.agentId === app.agentId);
    expect(mine.map((s) => [s.api, s.to, s.msgtype, s.content])).toEqual([1, 2, 3].map((i) => ["message/send", "zhangsan", "markdown", `**${i}**`]));
    expect(mine[0].body).toMatchObject({ touser: "zhangsan", msgtype: "markdown", agentid: Number(app.agentId), markdown: { content: "**1**" } });
  });

  it("is renewed 5 minutes before expires_in runs out", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const before = fake.tokenRequests;
    const first = await getWecomAccessToken(app);
    vi.setSystemTime(Date.now() + (7200 - 301) * 1000);
    expect(await getWecomAccessToken(app)).toBe(first);
    vi.setSystemTime(Date.now() + 2000);
    expect(await getWecomAccessToken(app)).not.toBe(first);
    expect(fake.tokenRequests - before).toBe(2);
  });

  it("is dropped and fetched again once when WeCom calls it expired (42001) or invalid (40014)", async () => {
    const before = fake.tokenRequests;
    await sendWecomMessage(app, { touser: "u1", msgtype: "text", content: "one" });
    fake.expireTokens();
    await sendWecomMessage(app, { touser: "u1", msgtype: "text", content: "two" });
    expect(fake.tokenRequests - before).toBe(2);
    fake.revokeTokens();
    await sendWecomAppChat(app, { chatid: "chat-1", msgtype: "markdown", content: "three" });
    expect(fake.tokenRequests - before).toBe(3);
    await sendWecomMessage(app, { touser: "u1", msgtype: "text", content: "four" });
    expect(fake.tokenRequests - before).toBe(3);
    expect(fake.sent.filter((s) => s.agentId === app.agentId).map((s) => s.content)).toEqual(["one", "two", "three", "four"]);
  });

  it("is fetched again only once: a second stale answer is the caller's error", async () => {
    // WeCom hands out tokens that are already expired (a clock gone wrong on its side).
    fake.state.expiresIn = -1;
    const before = fake.tokenRequests;
    const err = await refusal(sendWecomMessage(app, { touser: "u1", msgtype: "text", content: "x" }));
    expect(err.errcode).toBe(42001);
    expect(fake.tokenRequests - before).toBe(2);
  });

  it("is refused for a wrong secret or corp id, naming errcode and errmsg", async () => {
    const wrongSecret = await refusal(getWecomAccessToken({ ...app, secret: "nope" }));
    expect(wrongSecret.errcode).toBe(40001);
    expect(wrongSecret.message).toMatch(/^WeCom API error 40001: invalid credential/);
    const wrongCorp = await refusal(getWecomAccessToken({ ...app, corpId: "ww-unknown" }));
    expect(wrongCorp.errcode).toBe(40013);
    expect(wrongCorp.message).toContain("invalid corpid");
    // A refusal is not kept: the next call asks again.
    const before = fake.tokenRequests;
    await refusal(getWecomAccessToken({ ...app, secret: "nope" }));
    expect(fake.tokenRequests - before).toBe(1);
  });
});

describe("sends", () => {
  it("names WeCom's refusals: an unknown group, another app's agent id, content over 2048 bytes", async () => {
    expect((await refusal(sendWecomAppChat(app, { chatid: "chat-unknown", msgtype: "markdown", content: "hi" }))).errcode).toBe(86003);
    expect((await refusal(sendWecomMessage({ ...app, agentId: "42" }, { touser: "u1", msgtype: "markdown", content: "hi" }))).errcode).toBe(40056);
    const tooLong = await refusal(sendWecomMessage(app, { touser: "u1", msgtype: "markdown", content: "字".repeat(683) }));
    expect(tooLong.errcode).toBe(45002);
    expect(tooLong.message).toContain("content size out of limit");
    await sendWecomMessage(app, { touser: "u1", msgtype: "markdown", content: "字".repeat(682) });
  });

  it("reports WeCom unreachable as errcode -1, without the secret in the message", async () => {
    process.env.WECOM_API_BASE = "http://127.0.0.1:9";
    resetEnvCache();
    try {
      const err = await refusal(getWecomAccessToken(app));
      expect(err.errcode).toBe(-1);
      expect(err.message).not.toContain(app.secret);
    } finally {
      process.env.WECOM_API_BASE = fake.base;
      resetEnvCache();
    }
  });
});

describe("temporary media", () => {
  const png = { bytes: makePng(40, 30), filename: "crane.png", mime: "image/png" };

  it("uploads a picture as the form's media file and sends an image message naming it, to a member and to a group", async () => {
    const mediaId = await uploadWecomMedia(app, "image", png);
    expect(fake.media(mediaId)).toMatchObject({ type: "image", filename: "crane.png", mime: "image/png" });
    expect(fake.media(mediaId)!.bytes.equals(png.bytes)).toBe(true);
    await sendWecomMessage(app, { touser: "u1", msgtype: "image", mediaId });
    await sendWecomAppChat(app, { chatid: "chat-1", msgtype: "image", mediaId });
    const sent = fake.sent.filter((s) => s.mediaId === mediaId);
    expect(sent.map((s) => s.api)).toEqual(["message/send", "appchat/send"]);
    expect(sent[0]!.body).toMatchObject({ touser: "u1", msgtype: "image", image: { media_id: mediaId }, agentid: Number(app.agentId) });
  });

  it("uploads again with a new token when WeCom forgot the old one", async () => {
    await getWecomAccessToken(app);
    fake.revokeTokens();
    const before = fake.tokenRequests;
    const mediaId = await uploadWecomMedia(app, "image", png);
    expect(fake.tokenRequests - before).toBe(1);
    expect(fake.media(mediaId)!.bytes.equals(png.bytes)).toBe(true);
  });

  it("names WeCom's refusals: not a picture, a video message naming a picture, an unknown media id", async () => {
    expect((await refusal(uploadWecomMedia(app, "image", { bytes: Buffer.from("just some words"), filename: "a.png", mime: "image/png" }))).errcode).toBe(
      40005,
    );
    expect((await refusal(uploadWecomMedia(app, "image", { bytes: Buffer.from("tiny"), filename: "a.png", mime: "image/png" }))).errcode).toBe(40006);
    const mediaId = await uploadWecomMedia(app, "image", png);
    expect((await refusal(sendWecomMessage(app, { touser: "u1", msgtype: "video", mediaId }))).errcode).toBe(40007);
    expect((await refusal(sendWecomMessage(app, { touser: "u1", msgtype: "image", mediaId: "3nosuchmedia" }))).errcode).toBe(40007);
  });
});
