import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { feishuSignature, readFeishuCallback } from "./feishu-webhook";

const KEYS = { encrypt_key: "kP9x7Rw2encrypt", verification_token: "vT0kenAbc123" };
const botOpenId = async () => "ou_bot";

/** As Feishu seals an event: base64(iv + AES-256-CBC with sha256(encrypt key)). */
function seal(key: string, plain: unknown): string {
  const iv = crypto.randomBytes(16);
  const c = crypto.createCipheriv("aes-256-cbc", crypto.createHash("sha256").update(key).digest(), iv);
  return Buffer.concat([iv, c.update(JSON.stringify(plain), "utf8"), c.final()]).toString("base64");
}

function signed(raw: string, key = KEYS.encrypt_key) {
  const timestamp = "1700000000";
  const nonce = "n0nce";
  return { "x-lark-request-timestamp": timestamp, "x-lark-request-nonce": nonce, "x-lark-signature": feishuSignature(key, timestamp, nonce, raw) };
}

const messageEvent = (token = KEYS.verification_token) => ({
  schema: "2.0",
  header: { event_id: "ev1", token, event_type: "im.message.receive_v1", app_id: "cli_a", create_time: "1700000000000" },
  event: {
    sender: { sender_id: { open_id: "ou_alice" }, sender_type: "user" },
    message: {
      message_id: "om_1",
      chat_id: "oc_g",
      chat_type: "group",
      message_type: "text",
      content: JSON.stringify({ text: "@_user_1 hi" }),
      create_time: "1700000000000",
      mentions: [{ key: "@_user_1", id: { open_id: "ou_bot" }, name: "Bot" }],
    },
  },
});

describe("readFeishuCallback", () => {
  it("answers the URL challenge, plain or encrypted, only with the bot's verification token", async () => {
    const challenge = { challenge: "c-123", token: KEYS.verification_token, type: "url_verification" };
    expect(
      await readFeishuCallback({ encrypt_key: "", verification_token: KEYS.verification_token }, {}, Buffer.from(JSON.stringify(challenge)), botOpenId),
    ).toEqual({ kind: "challenge", challenge: "c-123" });
    const sealed = Buffer.from(JSON.stringify({ encrypt: seal(KEYS.encrypt_key, challenge) }));
    expect(await readFeishuCallback(KEYS, {}, sealed, botOpenId)).toEqual({ kind: "challenge", challenge: "c-123" });
    const forged = Buffer.from(JSON.stringify({ encrypt: seal(KEYS.encrypt_key, { ...challenge, token: "other" }) }));
    expect(await readFeishuCallback(KEYS, {}, forged, botOpenId)).toEqual({ kind: "refused", reason: "bad_token" });
  });

  it("an encrypted event signed over its exact bytes is decrypted and read (even when its JSON is not compact)", async () => {
    const raw = `{ "encrypt" : "${seal(KEYS.encrypt_key, messageEvent())}" }`;
    const read = await readFeishuCallback(KEYS, signed(raw), Buffer.from(raw), botOpenId);
    expect(read).toMatchObject({
      kind: "events",
      greetings: [],
      messages: [{ externalId: "om_1", conversation: { kind: "group", id: "oc_g" }, mentionedBot: true, text: "hi" }],
    });
  });

  it("refuses a bad or missing signature, a wrong token, a body sealed with another key, and what is not JSON", async () => {
    const raw = JSON.stringify({ encrypt: seal(KEYS.encrypt_key, messageEvent()) });
    const sig = signed(raw);
    expect(await readFeishuCallback(KEYS, { ...sig, "x-lark-signature": "0".repeat(64) }, Buffer.from(raw), botOpenId)).toEqual({
      kind: "refused",
      reason: "bad_signature",
    });
    expect(await readFeishuCallback(KEYS, { ...sig, "x-lark-request-nonce": "other" }, Buffer.from(raw), botOpenId)).toEqual({
      kind: "refused",
      reason: "bad_signature",
    });
    expect(await readFeishuCallback(KEYS, {}, Buffer.from(raw), botOpenId)).toEqual({ kind: "refused", reason: "bad_signature" });
    const wrongToken = JSON.stringify({ encrypt: seal(KEYS.encrypt_key, messageEvent("stolen")) });
    expect(await readFeishuCallback(KEYS, signed(wrongToken), Buffer.from(wrongToken), botOpenId)).toEqual({ kind: "refused", reason: "bad_token" });
    const otherKey = JSON.stringify({ encrypt: seal("another-key", messageEvent()) });
    expect(await readFeishuCallback(KEYS, signed(otherKey, "another-key"), Buffer.from(otherKey), botOpenId)).toEqual({
      kind: "refused",
      reason: "cannot_decrypt",
    });
    expect(await readFeishuCallback({ encrypt_key: "", verification_token: KEYS.verification_token }, {}, Buffer.from(raw), botOpenId)).toEqual({
      kind: "refused",
      reason: "cannot_decrypt",
    });
    expect(await readFeishuCallback(KEYS, {}, Buffer.from("{nope"), botOpenId)).toEqual({ kind: "refused", reason: "bad_body" });
    expect(await readFeishuCallback(KEYS, {}, Buffer.from("[1]"), botOpenId)).toEqual({ kind: "refused", reason: "bad_body" });
  });

  it("without an encrypt key, events come plain and the token is the check; a plain event to a bot with a key is refused", async () => {
    const plainKeys = { encrypt_key: "", verification_token: KEYS.verification_token };
    const joined = {
      schema: "2.0",
      header: { event_id: "ev9", token: KEYS.verification_token, event_type: "im.chat.member.user.added_v1" },
      event: { chat_id: "oc_j", users: [{ name: "Bob", user_id: { open_id: "ou_bob" } }] },
    };
    expect(await readFeishuCallback(plainKeys, {}, Buffer.from(JSON.stringify(joined)), botOpenId)).toEqual({
      kind: "events",
      messages: [],
      greetings: [{ externalId: "ev9", target: { kind: "group", id: "oc_j" }, who: { id: "ou_bob", name: "Bob" } }],
    });
    expect(await readFeishuCallback(plainKeys, {}, Buffer.from(JSON.stringify({ ...joined, header: { ...joined.header, token: "x" } })), botOpenId)).toEqual({
      kind: "refused",
      reason: "bad_token",
    });
    expect(await readFeishuCallback(KEYS, {}, Buffer.from(JSON.stringify(joined)), botOpenId)).toEqual({ kind: "refused", reason: "bad_signature" });
  });
});
