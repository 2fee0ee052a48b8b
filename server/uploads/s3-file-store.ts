// The file store on an S3-compatible bucket (AWS S3, MinIO, Aliyun OSS, Tencent COS...), chosen by
// S3_BUCKET (README "Configuration"). Keys are the same as in the local folder. The bucket can stay
// private: public files are still served through /files/<key> by this process.
// The SDK is loaded on first use, so a deployment on the local folder never loads it.
import type { S3Client } from "@aws-sdk/client-s3";
import type { Readable } from "node:stream";
import { isValidKey, type FileStore, type TStoredFile } from "./file-store";

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

  async get(key: string): Promise<TStoredFile | null> {
    if (!isValidKey(key)) return null;
    const { s3, sdk } = await this.connect();
    try {
      const out = await s3.send(new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      if (!out.Body) return null;
      return { stream: out.Body as Readable, contentType: out.ContentType ?? "application/octet-stream", size: out.ContentLength ?? 0 };
    } catch (err) {
      if (err instanceof sdk.NoSuchKey || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw err;
    }
  }

  async delete(key: string) {
    assertKey(key);
    const { s3, sdk } = await this.connect();
    await s3.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }
}
