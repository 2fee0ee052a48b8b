// multipart/form-data bodies, read with busboy. Each file field has its own byte limit, enforced
// while the body streams in: an upload past its limit is refused at that byte, and the rest of the
// body is drained and thrown away, never held in memory. Each file is inspected as soon as it has
// arrived (upload-guard.ts: its name, programs, archives and pictures that unpack too far), and the
// form is answered only once every file has passed; what it declared about each file is kept beside
// the bytes for the upload service (declared-type.ts).
import busboy from "busboy";
import type { Request } from "express";
import { AppError } from "../errors/app-error";
import { rememberDeclaredType } from "./declared-type";
import { inspectUpload } from "./upload-guard";

export type TUploadedFile = { field: string; bytes: Buffer; filename: string; mimeType: string };
export type TMultipartBody = { fields: Record<string, string>; files: Record<string, TUploadedFile> };
export type TMultipartLimits = {
  /** Accepted file fields and the most bytes each may have; other file fields are skipped. */
  files: Record<string, number>;
  maxFields?: number;
  maxFieldBytes?: number;
};

export function isMultipart(req: Pick<Request, "headers">) {
  return /^multipart\/form-data/i.test(req.headers["content-type"] ?? "");
}

export function readMultipart(req: Request, limits: TMultipartLimits): Promise<TMultipartBody> {
  const maxFields = limits.maxFields ?? 20;
  const maxFieldBytes = limits.maxFieldBytes ?? 16 * 1024;
  const largest = Math.max(0, ...Object.values(limits.files));
  const fileCount = Object.keys(limits.files).length;
  // A declared length past everything the form could hold is refused before reading a byte.
  const ceiling = largest * fileCount + maxFields * maxFieldBytes + 64 * 1024;
  const declared = Number(req.headers["content-length"] ?? 0);

  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: Record<string, TUploadedFile> = {};
    const inspections: Promise<void>[] = [];
    let settled = false;
    let parser: busboy.Busboy | undefined;

    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      if (parser) {
        req.unpipe(parser);
        parser.removeAllListeners();
        parser.on("error", () => {});
      }
      req.resume();
      reject(err);
    };

    if (!isMultipart(req)) return fail(new AppError("file_empty_or_prohibited"));
    if (declared > ceiling) return fail(new AppError("file_too_large"));
    try {
      // File names as browsers send them: UTF-8 (a Chinese name must not arrive as mojibake), and
      // whole: a name with folders in it is refused (upload-guard.ts), not quietly shortened.
      parser = busboy({
        headers: req.headers,
        defParamCharset: "utf8",
        preservePath: true,
        limits: { fileSize: largest + 1, files: fileCount + 4, fields: maxFields, fieldSize: maxFieldBytes, parts: maxFields + fileCount + 4 },
      });
    } catch (err) {
      return fail(new AppError("file_empty_or_prohibited", { cause: err }));
    }

    parser.on("file", (field, stream, info) => {
      const limit = limits.files[field];
      if (limit === undefined || files[field]) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (size > limit) return fail(new AppError("file_too_large", { data: { field, max_bytes: limit } }));
        chunks.push(chunk);
      });
      stream.on("limit", () => fail(new AppError("file_too_large", { data: { field, max_bytes: limit } })));
      stream.on("end", () => {
        if (settled) return;
        // An empty <input type=file> is sent as a part with no name and no bytes: nothing was chosen.
        if (size === 0 && !info.filename) return;
        const file = { field, bytes: Buffer.concat(chunks, size), filename: info.filename ?? "", mimeType: info.mimeType ?? "" };
        rememberDeclaredType(file.bytes, { filename: file.filename, mimeType: file.mimeType });
        files[field] = file;
        inspections.push(inspectUpload(file).catch(fail));
      });
    });
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(new AppError("validation_failed"));
      fields[name] = value;
    });
    for (const event of ["filesLimit", "fieldsLimit", "partsLimit"]) parser.on(event, () => fail(new AppError("validation_failed")));
    // busboy's errors are the body's faults (a broken part header, a name with a line break in it).
    parser.on("error", (err) => fail(new AppError("upload_malformed", { cause: err })));
    parser.on("close", () => {
      void Promise.all(inspections).then(() => {
        if (settled) return;
        settled = true;
        resolve({ fields, files });
      });
    });
    req.on("aborted", () => fail(new AppError("upload_failed")));
    req.pipe(parser);
  });
}
