// A robot's picture against the loopback DingTalk (tests/fakes/fake-dingtalk.ts): the media upload
// on the older host answers a media_id the robot's picture message names; a token DingTalk no longer
// takes is fetched anew once; DingTalk's refusals come back with its errcode.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../../env";
import { startFakeDingtalk, type TFakeDingtalk } from "../../../../tests/fakes/fake-dingtalk";
import { makePng } from "../../../../tests/helpers/png";
import { DingtalkApiError, robotPicture, sendToGroup, sendToUsers } from "./dingtalk-api";
import { uploadDingtalkMedia } from "./dingtalk-media";

const app = { clientId: `ding-media-${crypto.randomBytes(3).toString("hex")}`, clientSecret: "media-secret" };
const png = { bytes: makePng(40, 30), filename: "kite.png", mime: "image/png" };
let fake: TFakeDingtalk;
const saved = { DINGTALK_API_BASE: process.env.DINGTALK_API_BASE, DINGTALK_OAPI_BASE: process.env.DINGTALK_OAPI_BASE };

beforeAll(async () => {
  fake = await startFakeDingtalk(app);
  Object.assign(process.env, fake.env());
  resetEnvCache();
});
afterAll(async () => {
  await fake.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
});

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DingtalkApiError);
  return err as DingtalkApiError;
}

describe("a robot's picture", () => {
  it("is uploaded as a media file and sent by its media_id, to a person and to a group", async () => {
    const mediaId = await uploadDingtalkMedia(app, "image", png);
    expect(fake.media(mediaId)).toMatchObject({ clientId: app.clientId, type: "image", filename: "kite.png" });
    expect(fake.media(mediaId)!.bytes.equals(png.bytes)).toBe(true);
    await sendToUsers(app, ["staff-9"], robotPicture(mediaId));
    await sendToGroup(app, "cidGroup9==", robotPicture(mediaId));
    expect(fake.batchSends.at(-1)).toMatchObject({ msgKey: "sampleImageMsg", msgParam: JSON.stringify({ photoURL: mediaId }), userIds: ["staff-9"] });
    expect(fake.groupSends.at(-1)).toMatchObject({ msgKey: "sampleImageMsg", openConversationId: "cidGroup9==" });
  });

  it("is uploaded again with a new token when DingTalk no longer takes the old one", async () => {
    await uploadDingtalkMedia(app, "image", png);
    fake.expireTokens();
    const before = fake.tokenRequests;
    const mediaId = await uploadDingtalkMedia(app, "image", png);
    expect(fake.tokenRequests - before).toBe(1);
    expect(fake.media(mediaId)).toBeTruthy();
  });

  it("names DingTalk's refusals: not a picture, a picture message naming an unknown media_id", async () => {
    const notPicture = await refusal(uploadDingtalkMedia(app, "image", { bytes: Buffer.from("words, not pixels"), filename: "a.png", mime: "image/png" }));
    expect(notPicture.code).toBe("40005");
    const unknown = await refusal(sendToUsers(app, ["staff-9"], robotPicture("@lAnosuchmedia")));
    expect(unknown.status).toBe(400);
  });
});
