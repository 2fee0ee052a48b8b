// multipart/form-data as the loopback fakes read it (uploads to WeCom, DingTalk and Feishu): the
// text fields, and each file part with its field name, file name, declared type and bytes. A part
// without a file name counts as a file when it is declared application/octet-stream, as servers
// that take SDK uploads of raw buffers do.
import busboy from "busboy";

export type TFormFile = { field: string; filename: string | null; mime: string; bytes: Buffer };
export type TForm = { fields: Record<string, string>; files: TFormFile[] };

export const isMultipart = (contentType: string | undefined) => /^multipart\/form-data/i.test(contentType ?? "");

/** Parses a whole multipart body; rejects what is not one (no boundary, cut short). */
export function readForm(contentType: string, body: Buffer): Promise<TForm> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: TFormFile[] = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { "content-type": contentType }, defParamCharset: "utf8" });
    } catch (err) {
      return reject(err);
    }
    parser.on("field", (name, value) => (fields[name] = value));
    parser.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => files.push({ field, filename: info.filename ?? null, mime: info.mimeType, bytes: Buffer.concat(chunks) }));
    });
    parser.on("error", reject);
    parser.on("close", () => resolve({ fields, files }));
    parser.end(body);
  });
}

/** The picture format the bytes say they are (their magic number), or null. */
export function sniffPicture(bytes: Buffer): "png" | "jpeg" | "gif" | "bmp" | "webp" | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.subarray(0, 4).toString("latin1") === "GIF8") return "gif";
  if (bytes.subarray(0, 2).toString("latin1") === "BM") return "bmp";
  if (bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP") return "webp";
  return null;
}

/** Whether the bytes are an MP4 (ISO media: an `ftyp` box first). */
export const isMp4 = (bytes: Buffer) => bytes.subarray(4, 8).toString("latin1") === "ftyp";
