// Pictures that come back inline (OpenAI's b64_json, SD WebUI's base64 list, ComfyUI's /view) are
// read here: what a picture is follows from its bytes, since SD WebUI encodes in whatever format its
// settings say and OpenAI-compatible servers do not all draw PNGs.

const MAGIC: { mime: string; bytes: number[]; at?: number }[] = [
  { mime: "image/png", bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mime: "image/jpeg", bytes: [0xff, 0xd8, 0xff] },
  { mime: "image/gif", bytes: [0x47, 0x49, 0x46, 0x38] },
];

/** The picture's type by its first bytes, or null when it is no picture we know. */
export function sniffImageMime(bytes: Buffer): string | null {
  for (const m of MAGIC) if (bytes.length >= m.bytes.length && m.bytes.every((b, i) => bytes[i] === b)) return m.mime;
  // WebP: a RIFF container whose form type is "WEBP".
  if (bytes.length >= 12 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return "image/webp";
  return null;
}

/** Base64 as providers send it: bare, or as a data: URL. Null when it decodes to nothing. */
export function decodeBase64Picture(text: string): { bytes: Buffer; mime: string } | null {
  const bare = text.replace(/^data:[^;,]*;base64,/, "");
  const bytes = Buffer.from(bare, "base64");
  const mime = sniffImageMime(bytes);
  return bytes.length && mime ? { bytes, mime } : null;
}
