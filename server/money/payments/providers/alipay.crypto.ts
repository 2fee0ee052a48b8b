// Alipay's RSA2 (SHA256withRSA) signatures over sorted "key=value&..." strings (node:crypto only).
import crypto from "node:crypto";

/** The string Alipay signs: non-empty parameters sorted by name, `omit` left out. */
export function alipaySignContent(params: Record<string, string>, omit: string[]) {
  return Object.keys(params)
    .filter((k) => !omit.includes(k) && params[k] !== undefined && params[k] !== "")
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
}

export function signAlipay(content: string, privateKey: string) {
  return crypto.createSign("RSA-SHA256").update(content, "utf8").sign(privateKey, "base64");
}

export function verifyAlipay(content: string, signature: string, publicKey: string) {
  if (!signature) return false;
  try {
    return crypto.createVerify("RSA-SHA256").update(content, "utf8").verify(publicKey, signature, "base64");
  } catch {
    return false;
  }
}

/** "yyyy-MM-dd HH:mm:ss" in Beijing time, as Alipay wants its timestamps. */
export function alipayTimestamp(at = Date.now()) {
  return new Date(at + 8 * 3600_000).toISOString().replace("T", " ").slice(0, 19);
}

/**
 * The exact text of a response node (`alipay_trade_query_response`), which is what Alipay signed:
 * from its opening brace to the `,"sign"` that follows it.
 */
export function alipayResponseNode(text: string, node: string): string | null {
  const at = text.indexOf(`"${node}"`);
  if (at < 0) return null;
  const open = text.indexOf("{", at);
  const signAt = text.lastIndexOf(`,"sign"`);
  if (open < 0 || signAt < open) return null;
  return text.slice(open, signAt).trim();
}
