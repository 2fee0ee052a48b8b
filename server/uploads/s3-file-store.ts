// The file store on an S3-compatible bucket (AWS S3, MinIO, Aliyun OSS, Tencent COS...), chosen by
// S3_BUCKET (docs/configuration.md). Keys are the same as in the local folder. The bucket can stay
// private: public files are still served through /files/<key> by this process.
// The SDK is loaded on first use, so a deployment on the local folder never loads it.
import type { S3Client } from "@aws-sdk/client-s3";
import { Readable } from "node:stream";
import { isValidKey, resolveRange, type FileStore, type TStoredFile } from "./stored-file";

export type TS3Settings = {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
};

function assertKey(key: string) {
  if (!isValidKey(key)) throw new Error(`invalid file key: ${JSON.stringify(key)}`);
}

export class S3FileStore implements FileStore {
  private client: Promise<{ s3: S3Client; sdk: typeof import("@aws-sdk/client-s3") }> | undefined;

  constructor(readonly settings: TS3Settings) {}

  private connect() {
    this.client ??= import("@aws-sdk/client-s3").then((sdk) => {
      const { bucket: _bucket, accessKeyId, secretAccessKey, ...rest } = this.settings;
      const s3 = new sdk.S3Client({
        ...rest,
        credentials: { accessKeyId, secretAccessKey },
        // Checksums only where S3 requires them: other S3-compatible stores reject the newer
        // default checksum headers.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        maxAttempts: 3,
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
      });
      return { s3, sdk };
    });
    return this.client;
  }

  async put(key: string, bytes: Buffer, contentType: string) {
    assertKey(key);
    const { s3, sdk } = await this.connect();
    await s3.send(new sdk.PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length }));
  }

  async get(key: string, rangeHeader?: string): Promise<TStoredFile | null> {
    if (!isValidKey(key)) return null;
    const { s3, sdk } = await this.connect();
    // Only a single "bytes=" range goes to the bucket; anything else reads the whole object.
    const range = rangeHeader && resolveRange(rangeHeader, Number.MAX_SAFE_INTEGER) ? rangeHeader.trim() : undefined;
    try {
      const out = await s3.send(new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: key, Range: range }));
      if (!out.Body) return null;
      const contentType = out.ContentType ?? "application/octet-stream";
      const partial = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(out.ContentRange ?? "");
      if (partial)
        return { stream: out.Body as Readable, contentType, size: Number(partial[3]), range: { start: Number(partial[1]), end: Number(partial[2]) } };
      return { stream: out.Body as Readable, contentType, size: out.ContentLength ?? 0 };
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (err instanceof sdk.NoSuchKey || status === 404) return null;
      if (status === 416 && range) {
        const head = await s3.send(new sdk.HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
        return {
          stream: Readable.from([]),
          contentType: head.ContentType ?? "application/octet-stream",
          size: head.ContentLength ?? 0,
          range: "unsatisfiable",
        };
      }
      throw err;
    }
  }

  async delete(key: string) {
    assertKey(key);
    const { s3, sdk } = await this.connect();
    await s3.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }
}
