// WeCom's callback crypto (WXBizMsgCrypt, "加解密方案说明"): every callback carries
// msg_signature = SHA1 of the sorted [token, timestamp, nonce, Encrypt], and Encrypt is
// AES-256-CBC (key = base64(EncodingAESKey + "="), iv = key[0..16], PKCS#7 padding to 32-byte
// blocks) over 16 random bytes + a 4-byte big-endian length + the message + the receive id (the
// corp id). Written here rather than taken from @wecom/crypto, whose decrypt accepts bad padding
// and reads past the plaintext on a bad length; we use that package only as an independent
// implementation to test against (wecom-crypto.test.ts).
import crypto from "node:crypto";

/** A callback we refuse: its signature, ciphertext, padding, length or receive id is wrong. */
export class WecomCryptoError extends Error {
  constructor(readonly reason: "signature" | "key" | "ciphertext" | "padding" | "length" | "receive_id") {
    super(`WeCom callback refused: bad ${reason}`);
    this.name = "WecomCryptoError";
  }
}

const BLOCK = 32;

function aesKey(encodingAesKey: string) {
  if (!/^[A-Za-z0-9+/]{43}$/.test(encodingAesKey)) throw new WecomCryptoError("key");
  const key = Buffer.from(`${encodingAesKey}=`, "base64");
  if (key.length !== 32) throw new WecomCryptoError("key");
  return { key, iv: key.subarray(0, 16) };
}

export function wecomSignature(token: string, timestamp: string, nonce: string, encrypt: string): string {
  return crypto.createHash("sha1").update([token, timestamp, nonce, encrypt].sort().join("")).digest("hex");
}

/** True when `signature` is the one WeCom computes for these parts; compared in constant time. */
export function verifyWecomSignature(token: string, p: { signature: string; timestamp: string; nonce: string; encrypt: string }): boolean {
  const expected = Buffer.from(wecomSignature(token, p.timestamp, p.nonce, p.encrypt));
  const given = Buffer.from(p.signature.toLowerCase());
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** The message inside `encrypt`, refusing one sealed for another receive id (corp). */
export function decryptWecom(encodingAesKey: string, encrypt: string, receiveId: string): string {
  const { key, iv } = aesKey(encodingAesKey);
  const sealed = Buffer.from(encrypt, "base64");
  if (!sealed.length || sealed.length % 16) throw new WecomCryptoError("ciphertext");
  const decipher = crypto.createDecipheriv("aes-256-cbc", key, iv);
  decipher.setAutoPadding(false);
  const padded = Buffer.concat([decipher.update(sealed), decipher.final()]);
  const pad = padded[padded.length - 1];
  if (pad < 1 || pad > BLOCK || pad > padded.length || !padded.subarray(padded.length - pad).every((b) => b === pad)) throw new WecomCryptoError("padding");
  const plain = padded.subarray(0, padded.length - pad);
  if (plain.length < 20) throw new WecomCryptoError("length");
  const length = plain.readUInt32BE(16);
  if (20 + length > plain.length) throw new WecomCryptoError("length");
  if (plain.subarray(20 + length).toString("utf8") !== receiveId) throw new WecomCryptoError("receive_id");
  return plain.subarray(20, 20 + length).toString("utf8");
}

/** What WeCom sends: `message` sealed for `receiveId` (the fake platform and the tests use this). */
export function encryptWecom(encodingAesKey: string, message: string, receiveId: string, random: Buffer = crypto.randomBytes(16)): string {
  const { key, iv } = aesKey(encodingAesKey);
  const body = Buffer.from(message, "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length, 0);
  const plain = Buffer.concat([random, length, body, Buffer.from(receiveId, "utf8")]);
  const pad = BLOCK - (plain.length % BLOCK);
  const cipher = crypto.createCipheriv("aes-256-cbc", key, iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])), cipher.final()]).toString("base64");
}

// WeCom's XML --------------------------------------------------------------------------------

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_m, e: string) =>
    e[0] === "#" ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : ENTITIES[e.toLowerCase()],
  );

/**
 * The children of WeCom's flat `<xml>` document as name → text (CDATA or escaped text). Nested
 * elements (a few events carry them) are kept as their raw inner XML. No DTDs, no entity
 * expansion beyond the five predefined ones: nothing here can reach the file system or the network.
 */
export function parseWecomXml(xml: string): Record<string, string> {
  const src = xml
    .replace(/^\uFEFF/, "")
    .replace(/<\?xml[\s\S]*?\?>/, "")
    .trim();
  const root = /^<xml>([\s\S]*)<\/xml>$/.exec(src);
  if (!root) throw new Error("WeCom XML: no <xml> root");
  const body = root[1];
  const out: Record<string, string> = {};
  let i = 0;
  for (;;) {
    while (i < body.length && /\s/.test(body[i])) i++;
    if (i >= body.length) break;
    const open = /^<([A-Za-z_][\w.-]*)\s*(\/?)>/.exec(body.slice(i, i + 200));
    if (!open) throw new Error(`WeCom XML: unexpected content at ${i}`);
    const name = open[1];
    i += open[0].length;
    if (open[2]) {
      out[name] = "";
      continue;
    }
    const close = `</${name}>`;
    let value = "";
    // Text and CDATA sections until this element's closing tag (a CDATA holding "]]>" comes split in two).
    for (;;) {
      if (body.startsWith("<![CDATA[", i)) {
        const end = body.indexOf("]]>", i + 9);
        if (end < 0) throw new Error("WeCom XML: unterminated CDATA");
        value += body.slice(i + 9, end);
        i = end + 3;
      } else if (body.startsWith(close, i)) {
        i += close.length;
        break;
      } else if (body[i] === "<") {
        // A nested element: keep its raw XML up to the matching close of this name.
        const end = body.indexOf(close, i);
        if (end < 0) throw new Error(`WeCom XML: <${name}> not closed`);
        value += body.slice(i, end);
        i = end + close.length;
        break;
      } else {
        const next = body.indexOf("<", i);
        if (next < 0) throw new Error(`WeCom XML: <${name}> not closed`);
        value += unescapeXml(body.slice(i, next));
        i = next;
      }
    }
    out[name] = value;
  }
  return out;
}

/** A flat `<xml>` document as WeCom writes one: strings in CDATA, numbers bare. */
export function buildWecomXml(fields: Record<string, string | number>): string {
  const cdata = (s: string) => `<![CDATA[${s.replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;
  const parts = Object.entries(fields).map(([k, v]) => `<${k}>${typeof v === "number" ? String(v) : cdata(v)}</${k}>`);
  return `<xml>${parts.join("")}</xml>`;
}
