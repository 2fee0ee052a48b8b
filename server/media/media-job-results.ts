// How a job ends. Done: every result is copied into our file store at once (providers' links
// expire within a day), pictures and videos become items of the owner's multimedia library, and the
// hold is settled as a charge. Failed: the hold is released. Each ending is one transaction that
// moves the job only from a running state: a second finisher (a callback racing a poll, a worker
// resumed after a crash) finds the job already ended, rolls back, and charges nothing; the ledger's
// single settlement key makes a double charge impossible even then.
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { guardedFetch } from "../net/guarded-fetch";
import { readImageSize } from "../uploads/sniff";
import { deleteFiles, storeFile } from "../uploads/uploads.service";
import { MB } from "../uploads/upload-limits";
import type { TMediaJobState } from "./generation.schema";
import { payerOf } from "./digital-requests";
import { runJobEndHooks } from "./job-finish-hooks";
import { sourcesOf } from "./job-states";
import { settleJobPrice } from "./media-billing";
import { requestMediaDerivation } from "./media-derive.service";
import { enqueueDispatch } from "./media-jobs.service";
import * as repo from "./media-jobs.repository";
import { createMediaItem } from "./media.repository";
import type { TProviderFailure, TProviderOutput } from "./providers/provider";

/** What ending a job needs to know of it: whom to settle with, and what its hooks read. */
type TJobToEnd = Pick<repo.TMediaJobRow, "id" | "ownerAccountId" | "kind" | "params">;

/** A result larger than this is not a picture, a short video or a spoken reply. */
const RESULT_MAX_BYTES = 500 * MB;

/** Our error code for a provider's failure. */
export function codeForFailure(failure: TProviderFailure) {
  const codes: Record<TProviderFailure, string> = {
    content_input: "content_illegal",
    content_output: "output_review_failed",
    balance: "system_busy",
    rate_limited: "too_many_users",
    auth: "key_banned",
    bad_request: "media_request_refused",
    expired: "media_result_expired",
    no_face: "digital_no_face",
    too_long: "digital_media_too_long",
    upstream: "generation_failed",
  };
  return codes[failure];
}

type TResultFile = { bytes: Buffer; kind: "image" | "video" | "audio"; mime: string; ext: string };

/** A result's kind from its bytes (never from the provider's word for it). */
export function sniffResult(bytes: Buffer): Omit<TResultFile, "bytes"> | null {
  const ascii = (a: number, b: number) => bytes.subarray(a, b).toString("latin1");
  if (bytes.length < 12) return null;
  if (bytes[0] === 0x89 && ascii(1, 4) === "PNG") return { kind: "image", mime: "image/png", ext: "png" };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { kind: "image", mime: "image/jpeg", ext: "jpg" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return { kind: "image", mime: "image/webp", ext: "webp" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return { kind: "audio", mime: "audio/wav", ext: "wav" };
  if (ascii(4, 8) === "ftyp") return { kind: "video", mime: "video/mp4", ext: "mp4" };
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return { kind: "video", mime: "video/webm", ext: "webm" };
  if (ascii(0, 3) === "ID3" || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0)) return { kind: "audio", mime: "audio/mpeg", ext: "mp3" };
  return null;
}

/** Raised when a result link no longer answers: the job fails (released) rather than waits. */
export class ResultGoneError extends Error {}

/**
 * A result's bytes. Links are fetched through the SSRF guard (they are the provider's, not ours);
 * the platform channel's own host may be private (an administrator's self-hosted provider).
 */
export async function readResult(output: TProviderOutput, trustedHost: string | null): Promise<TResultFile> {
  let bytes: Buffer;
  if ("bytes" in output) bytes = output.bytes;
  else {
    const { response, body } = await guardedFetch(output.url, {}, { maxBytes: RESULT_MAX_BYTES, timeoutMs: 120_000, allow: trustedHost ? [trustedHost] : [] });
    if ([401, 403, 404, 410].includes(response.status)) throw new ResultGoneError(`result link answered ${response.status}`);
    if (!response.ok) throw new Error(`result link answered ${response.status}`);
    bytes = body;
  }
  const kind = sniffResult(bytes);
  if (!kind) throw new AppError("generation_failed", { message: "a result is no picture, video or audio" });
  return { bytes, ...kind };
}

/** Ends a job as failed (or failed review) and releases its hold. False when it had already ended. */
export async function failJob(job: TJobToEnd, code: string, state: Extract<TMediaJobState, "failed" | "failed_review">, detail?: string) {
  const ended = await withTransaction(async (tx) => {
    const moved = await repo.moveMediaJob(
      job.id,
      sourcesOf(state),
      state,
      { errorCode: code, errorDetail: detail?.slice(0, 500) ?? null, finishedAt: new Date() },
      tx,
    );
    if (!moved) return false;
    await settleJobPrice({ jobId: job.id, payer: payerOf(job), chargedMicro: 0, memo: { outcome: state } }, tx);
    // What depends on the job (a figure in training, a render waiting) fails with it, or nothing does.
    await runJobEndHooks(
      { id: job.id, kind: job.kind, ownerAccountId: job.ownerAccountId, state, params: job.params, outputs: [], result: null, errorCode: code },
      tx,
    );
    return true;
  });
  if (ended) await enqueueDispatch();
  return ended;
}

/** What a job that delivered `delivered` results is charged: pictures each, anything else whole. */
function chargeFor(job: repo.TMediaJobRow, delivered: number) {
  const held = Number(job.holdMicro);
  if (job.kind !== "image") return held;
  const asked = Number((job.params as { request?: { count?: number } }).request?.count ?? 1);
  return Math.min(held, Math.floor((held / asked) * delivered));
}

/**
 * Stores the results and ends the job as done, charging it. False when another finisher got there first.
 * A lip-sync's clip is kept under media/<account>/digital/ and becomes no library item (the render's
 * composite is the one the owner sees); a training stores no file, and what it made (`result`, with
 * the provider and the model it belongs to) is kept in the job's params as `result`.
 */
export async function finishJob(job: repo.TMediaJobRow, files: TResultFile[], made?: Record<string, string>) {
  const now = new Date();
  const stored: { fileKey: string; file: TResultFile; width: number | null; height: number | null }[] = [];
  const result = made ? { ...made, provider: job.provider ?? "", modelKey: job.modelKey } : null;
  const params = result ? { ...(job.params as Record<string, unknown>), result } : job.params;
  try {
    for (const file of files) {
      const fileKey = await storeFile(`media/${job.ownerAccountId}/${job.kind === "lipsync" ? "digital" : "generated"}`, file);
      const size = file.kind === "image" ? readImageSize(file.bytes) : null;
      stored.push({ fileKey, file, width: size?.width ?? null, height: size?.height ?? null });
    }
    const itemIds = await withTransaction(async (tx) => {
      const ids: (string | null)[] = [];
      for (const [i, s] of stored.entries()) {
        if (s.file.kind === "audio" || job.kind === "lipsync") {
          ids.push(null);
          continue;
        }
        const kind = s.file.kind;
        const name = `${job.kind === "image" ? "image" : "video"}-${job.id.slice(-6)}-${i + 1}.${s.file.ext}`;
        const item = await createMediaItem(
          {
            ownerAccountId: job.ownerAccountId,
            jobId: job.id,
            name,
            kind,
            fileKey: s.fileKey,
            mime: s.file.mime,
            size: s.file.bytes.length,
            width: s.width,
            height: s.height,
            createdAt: now,
          },
          tx,
        );
        ids.push(item.id);
      }
      const outputs = stored.map((s, i) => ({
        fileKey: s.fileKey,
        mime: s.file.mime,
        size: s.file.bytes.length,
        width: s.width,
        height: s.height,
        durationMs: null,
        mediaItemId: ids[i],
      }));
      // The move comes first: it locks the job's row, so a second finisher waits here and then finds it ended.
      const charged = chargeFor(job, files.length);
      const ending = { outputs, progress: 100, finishedAt: now, chargedMicro: BigInt(charged), ...(result ? { params: params as never } : {}) };
      const moved = await repo.moveMediaJob(job.id, sourcesOf("done"), "done", ending, tx);
      if (!moved) throw new JobAlreadyEnded();
      await settleJobPrice({ jobId: job.id, payer: payerOf(job), chargedMicro: charged, memo: { outcome: "done" } }, tx);
      await runJobEndHooks({ id: job.id, kind: job.kind, ownerAccountId: job.ownerAccountId, state: "done", params, outputs, result, errorCode: null }, tx);
      return ids.filter((id): id is string => Boolean(id));
    });
    // Thumbnails, posters and phone renditions, as for an upload.
    for (const id of itemIds) await requestMediaDerivation(id);
    await enqueueDispatch();
    return true;
  } catch (err) {
    await deleteFiles(stored.map((s) => s.fileKey));
    if (err instanceof JobAlreadyEnded) return false;
    throw err;
  }
}

class JobAlreadyEnded extends Error {}
