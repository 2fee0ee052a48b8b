// WeCom's callback crypto against WeCom's own published sample (developer.work.weixin.qq.com,
// document 90968: the URL verification and the encrypted message), against @wecom/crypto as an
// independent implementation, and against what an attacker or a misconfiguration would send.
import crypto from "node:crypto";
import * as wecomLib from "@wecom/crypto";
import { describe, expect, it } from "vitest";
import { buildWecomXml, decryptWecom, encryptWecom, parseWecomXml, verifyWecomSignature, WecomCryptoError, wecomSignature } from "./wecom-crypto";

// WeCom's sample parameters (public, in every WXBizMsgCrypt sample).
const TOKEN = "QDG6eK";
const CORP_ID = "wx5823bf96d3bd56c7";
const AES_KEY = "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C";

const SAMPLE_ECHO = {
  signature: "5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3",
  timestamp: "1409659589",
  nonce: "263014780",
  encrypt: "P9nAzCzyDtyTWESHep1vC5X9xho/qYX3Zpb4yKa9SKld1DsH3Iyt3tP3zNdtp+4RPcs8TgAE7OaBO+FZXvnaqQ==",
};
const SAMPLE_MESSAGE = {
  signature: "477715d11cdb4164915debcba66cb864d751f3e6",
  timestamp: "1409659813",
  nonce: "1372623149",
  encrypt:
    "RypEvHKD8QQKFhvQ6QleEB4J58tiPdvo+rtK1I9qca6aM/wvqnLSV5zEPeusUiX5L5X/0lWfrf0QADHHhGd3QczcdCUpj911L3vg3W/sYYvuJTs3TUUkSUXxaccAS0qhxchrRYt66wiSpGLYL42aM6A8dTT+6k4aSknmPj48kzJs8qLjvd4Xgpue06DOdnLxAUHzM6+kDZ+HMZfJYuR+LtwGc2hgf5gsijff0ekUNXZiqATP7PF5mZxZ3Izoun1s4zG4LUMnvw2r+KqCKIw+3IQH03v+BCA9nMELNqbSf6tiWSrXJB3LAVGUcallcrw8V2t9EL4EhzJWrQUax5wLVMNS0+rUPA3k22Ncx4XXZS9o0MBH27Bo6BpNelZpS+/uh9KsNlY6bHCmJU9p8g7m3fVKn28H3KDYA5Pl/T8Z1ptDAVe0lXdQ2YoyyH2uyPIGHBZZIs2pDBS8R07+qN+E7Q==",
};

const refused = (fn: () => unknown, reason: WecomCryptoError["reason"]) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WecomCryptoError);
    expect((err as WecomCryptoError).reason).toBe(reason);
    return;
  }
  throw new Error(`expected a refusal for ${reason}`);
};

describe("WeCom's published sample", () => {
  it("verifies and decrypts the URL verification's echostr", () => {
    expect(verifyWecomSignature(TOKEN, SAMPLE_ECHO)).toBe(true);
    expect(decryptWecom(AES_KEY, SAMPLE_ECHO.encrypt, CORP_ID)).toBe("1616140317555161061");
  });

  it("verifies and decrypts the sample text message", () => {
    expect(verifyWecomSignature(TOKEN, SAMPLE_MESSAGE)).toBe(true);
    const xml = parseWecomXml(decryptWecom(AES_KEY, SAMPLE_MESSAGE.encrypt, CORP_ID));
    expect(xml.MsgType).toBe("text");
    expect(xml.Content).toBe("hello");
    expect(xml.MsgId).toBe("4561255354251345929");
  });

  it("refuses the sample under another token, nonce, timestamp or a changed ciphertext", () => {
    expect(verifyWecomSignature("QDG6eL", SAMPLE_MESSAGE)).toBe(false);
    expect(verifyWecomSignature(TOKEN, { ...SAMPLE_MESSAGE, nonce: "1372623148" })).toBe(false);
    expect(verifyWecomSignature(TOKEN, { ...SAMPLE_MESSAGE, timestamp: "1409659814" })).toBe(false);
    expect(verifyWecomSignature(TOKEN, { ...SAMPLE_MESSAGE, encrypt: `A${SAMPLE_MESSAGE.encrypt.slice(1)}` })).toBe(false);
    expect(verifyWecomSignature(TOKEN, { ...SAMPLE_MESSAGE, signature: "" })).toBe(false);
    expect(verifyWecomSignature(TOKEN, { ...SAMPLE_MESSAGE, signature: SAMPLE_MESSAGE.signature.slice(0, 39) })).toBe(false);
    // Hex case is not a different signature.
    expect(verifyWecomSignature(TOKEN, { ...SAMPLE_MESSAGE, signature: SAMPLE_MESSAGE.signature.toUpperCase() })).toBe(true);
  });

  it("refuses a message sealed for another corp", () => {
    refused(() => decryptWecom(AES_KEY, SAMPLE_MESSAGE.encrypt, "wx5823bf96d3bd56c8"), "receive_id");
  });
});

describe("sealing", () => {
  const key = crypto.randomBytes(32).toString("base64").slice(0, 43).replace(/[+/]/g, "x");
  const text = "你好 WeCom 🙂 <b>&amp; ]]> the end";

  it("round-trips any text and agrees with @wecom/crypto both ways", () => {
    const sealed = encryptWecom(key, text, "ww123");
    expect(decryptWecom(key, sealed, "ww123")).toBe(text);
    expect(wecomLib.decrypt(key, sealed)).toMatchObject({ message: text, id: "ww123" });
    expect(decryptWecom(key, wecomLib.encrypt(key, text, "ww123"), "ww123")).toBe(text);
    expect(wecomSignature("tok", "1", "2", sealed)).toBe(wecomLib.getSignature("tok", "1", "2", sealed));
  });

  it("pads to 32-byte blocks with fresh random bytes each time", () => {
    const a = Buffer.from(encryptWecom(key, "x", "ww1"), "base64");
    const b = Buffer.from(encryptWecom(key, "x", "ww1"), "base64");
    expect(a.length % 32).toBe(0);
    expect(a.equals(b)).toBe(false);
  });

  it("refuses another key, a truncated or misaligned ciphertext, and bad keys", () => {
    const sealed = encryptWecom(key, text, "ww123");
    // A character in the middle: the last of the 43 carries two bits that decoding drops, so changing
    // it can leave the AES key as it was.
    const other = `${key.slice(0, 10)}${key[10] === "A" ? "Q" : "A"}${key.slice(11)}`;
    // Under another key the padding or the length fails, never a wrong message.
    expect(() => decryptWecom(other, sealed, "ww123")).toThrow(WecomCryptoError);
    refused(() => decryptWecom(key, Buffer.from(sealed, "base64").subarray(0, 40).toString("base64"), "ww123"), "ciphertext");
    refused(() => decryptWecom(key, "", "ww123"), "ciphertext");
    refused(() => decryptWecom("short", sealed, "ww123"), "key");
    refused(() => encryptWecom(`${key.slice(0, 42)}!`, "x", "ww1"), "key");
  });

  it("refuses a plaintext whose length field runs past its end, and bad padding", () => {
    const { key: k, iv } = (() => {
      const raw = Buffer.from(`${key}=`, "base64");
      return { key: raw, iv: raw.subarray(0, 16) };
    })();
    const seal = (plain: Buffer) => {
      const c = crypto.createCipheriv("aes-256-cbc", k, iv);
      c.setAutoPadding(false);
      return Buffer.concat([c.update(plain), c.final()]).toString("base64");
    };
    const len = Buffer.alloc(4);
    len.writeUInt32BE(1000);
    const body = Buffer.concat([crypto.randomBytes(16), len, Buffer.from("hi ww1")]);
    const pad = 32 - (body.length % 32);
    refused(() => decryptWecom(key, seal(Buffer.concat([body, Buffer.alloc(pad, pad)])), "ww1"), "length");
    const badPad = Buffer.concat([body, Buffer.alloc(pad, pad)]);
    badPad[badPad.length - 2] = pad + 1;
    refused(() => decryptWecom(key, seal(badPad), "ww1"), "padding");
    const zeroPad = Buffer.concat([body, Buffer.alloc(pad, 0)]);
    refused(() => decryptWecom(key, seal(zeroPad), "ww1"), "padding");
  });
});

describe("WeCom XML", () => {
  it("reads CDATA, bare numbers, escaped text, split CDATA and empty elements", () => {
    const xml = `<?xml version="1.0"?>\n<xml>\n  <ToUserName><![CDATA[ww1]]></ToUserName>\n  <CreateTime>1348831860</CreateTime>\n  <Content><![CDATA[a ]]]]><![CDATA[> b]]></Content>\n  <Note>x &lt;y&gt; &amp; &#20320;&#x597D;</Note>\n  <EventKey/>\n  <Empty></Empty>\n</xml>`;
    expect(parseWecomXml(xml)).toEqual({ ToUserName: "ww1", CreateTime: "1348831860", Content: "a ]]> b", Note: "x <y> & 你好", EventKey: "", Empty: "" });
  });

  it("keeps a nested element's inner XML without reading its children as fields", () => {
    const xml =
      "<xml><Event><![CDATA[location_select]]></Event><SendLocationInfo><Location_X><![CDATA[23]]></Location_X></SendLocationInfo><AgentID>1</AgentID></xml>";
    const fields = parseWecomXml(xml);
    expect(fields.Event).toBe("location_select");
    expect(fields.SendLocationInfo).toContain("Location_X");
    expect(fields.Location_X).toBeUndefined();
    expect(fields.AgentID).toBe("1");
  });

  it("refuses what is not WeCom's XML (no root, DTDs, unclosed elements)", () => {
    expect(() => parseWecomXml("<root><a>1</a></root>")).toThrow();
    expect(() => parseWecomXml('<!DOCTYPE xml [<!ENTITY x SYSTEM "file:///etc/passwd">]><xml><a>&x;</a></xml>')).toThrow();
    expect(() => parseWecomXml("<xml><a>1</xml>")).toThrow();
    expect(() => parseWecomXml("<xml><a><![CDATA[1</a></xml>")).toThrow();
    expect(() => parseWecomXml("<xml>text</xml>")).toThrow();
  });

  it("builds what it reads back", () => {
    const fields = { ToUserName: "ww1", Content: "a ]]> <b> & c", MsgId: "123", CreateTime: 17 };
    expect(parseWecomXml(buildWecomXml(fields))).toEqual({ ...fields, CreateTime: "17" });
  });
});
