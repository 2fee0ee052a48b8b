// WeChat Pay API v3 signatures and notification decryption (node:crypto only).
import crypto from "node:crypto";

/** The Authorization header of a request: RSA-SHA256 over "METHOD\nURL\nTIMESTAMP\nNONCE\nBODY\n". */
export function signWechatRequest(opts: {
  method: string;
  pathWithQuery: string;
  body: string;
  mchid: string;
  serialNo: string;
  privateKey: string;
  timestamp?: number;
  nonce?: string;
}) {
  const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = opts.nonce ?? crypto.randomBytes(16).toString("hex").toUpperCase();
  const message = `${opts.method}\n${opts.pathWithQuery}\n${timestamp}\n${nonce}\n${opts.body}\n`;
  const signature = crypto.createSign("RSA-SHA256").update(message).sign(opts.privateKey, "base64");
  return `WECHATPAY2-SHA256-RSA2048 mchid="${opts.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${opts.serialNo}"`;
}

/** A response or notification signature: RSA-SHA256 over "TIMESTAMP\nNONCE\nBODY\n" with the platform key. */
export function verifyWechatSignature(opts: { timestamp: string; nonce: string; body: string; signature: string; publicKey: string }) {
  if (!opts.timestamp || !opts.nonce || !opts.signature) return false;
  try {
    return crypto.createVerify("RSA-SHA256").update(`${opts.timestamp}\n${opts.nonce}\n${opts.body}\n`).verify(opts.publicKey, opts.signature, "base64");
  } catch {
    return false;
  }
}

/** AEAD_AES_256_GCM with the APIv3 key; the ciphertext carries the 16-byte tag at its end. */
export function decryptWechatResource(r: { ciphertext: string; nonce: string; associated_data?: string }, apiV3Key: string): string {
  const data = Buffer.from(r.ciphertext, "base64");
  if (data.length < 17) throw new Error("wechatpay: ciphertext too short");
  const decipher = crypto.createDecipheriv("aes-256-gcm", Buffer.from(apiV3Key, "utf8"), Buffer.from(r.nonce, "utf8"));
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(r.associated_data ?? "", "utf8"));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
}
