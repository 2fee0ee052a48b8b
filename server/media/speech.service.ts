// Speech synthesis as a billed media job. One synthesis is one MediaJob of kind speech, made
// already generating (it runs while its request waits) and ended done or failed before the request
// answers; the spoken audio is kept in the public file store (media/<payer>/speech/, or digital/ for a
// digital-human video's speech; an unguessable key: its URL is the capability).
//
// Money: 0.024 US dollars per 1000 characters at the configured exchange rate (priceMetered
// "speech"), or the voice model's own unit price per 1000 characters when it sets one. The price is
// held before any voice model is asked (the most any candidate model would cost) in the same
// transaction that makes the job row: not enough money refuses with the caller's refusal and
// writes nothing. Success charges the answering model's price, failure releases it all
// (media-billing.ts: one settlement per job).
//
// Idempotency: the job id is the caller's reference. The same id again, for the same text, payer,
// app and requester, answers the first result without a second charge (the stored audio of a job
// done; the refusal of a job failed: a new attempt takes a new id); while the first still runs,
// repeat_action. The same id for anything else is idempotency_conflict.
import crypto from "node:crypto";
import { runTransaction, isUniqueViolation } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { logger } from "../lib/logger";
import { randomToken } from "../lib/secret-box";
import { priceMetered } from "../money/metering/metering.service";
import { getFileStore } from "../uploads/file-store";
import { deleteFiles, storeFile, toPublicFileUrl } from "../uploads/uploads.service";
import { holdJobPrice, settleJobPrice } from "./media-billing";
import { codeForFailure } from "./media-job-results";
import { JOB_DEADLINE_MS } from "./media-jobs.service";
import { priceSpeechByUnit } from "./media-pricing";
import * as repo from "./speech-jobs.repository";
import { listSpeechFamilies, listSpeechRoutes, SpeechFailedError, speakOnRoutes, type TSpeechModel, type TSpokenAudio } from "./speech-upstream";
import { DEFAULT_VOICE, VOICES, type TVoiceList } from "./voices";

/** A cloned voice: the voice model it was made on, and the provider's id for it. */
export type TOwnVoice = { modelKey: string; providerVoiceId: string };

export type TSpeechOrder = {
  /** The idempotency reference: a retried request with the same id is charged once. */
  jobId: string;
  /** Who pays (gift credit first, then coins). */
  payer: string;
  /** What the requester reads when the payer cannot pay. */
  refusal: "balance_insufficient" | "app_owner_balance_insufficient";
  text: string;
  /** The announcer asked for (an app's stored speaker; anything unlisted speaks the default voice). */
  speaker: string;
  /** A voice of the payer's own, cloned at a provider: only its model speaks it, under the provider's voice id. */
  ownVoice?: TOwnVoice | null;
  /** The payer's media folder the audio is kept in (a digital-human video keeps its speech with its other files). */
  folder?: "speech" | "digital";
  origin: "app" | "digital_video";
  appId: string | null;
  /** The message the speech reads out, when it is one. */
  originRef: string | null;
  /** Who asked, as an opaque key: only they get a retried job's audio back. */
  requester: string;
  signal?: AbortSignal;
};

export type TSpeech = { jobId: string; fileKey: string; url: string; mime: string; bytes: Buffer; chargedMicro: number; replayed: boolean };

/** Characters as a reader counts them (a CJK character or an emoji is one). */
export const countSpeechChars = (text: string) => [...text].length;

/** The price of `chars` characters on `model`: its own unit price per 1000, else the platform's speech price. */
export function priceSpeech(model: Pick<TSpeechModel, "unitPriceMicro">, chars: number) {
  return model.unitPriceMicro > 0 ? priceSpeechByUnit(model.unitPriceMicro, chars) : priceMetered("speech", chars);
}

type TFingerprint = { textLength: number; textHash: string; requester: string };
const fingerprintOf = (o: TSpeechOrder): TFingerprint => ({
  textLength: countSpeechChars(o.text),
  textHash: crypto.hash("sha256", o.text, "hex").slice(0, 32),
  requester: o.requester,
});

export async function speakBilled(order: TSpeechOrder): Promise<TSpeech> {
  const fingerprint = fingerprintOf(order);
  const existing = await repo.findSpeechJob(order.jobId);
  if (existing) return replaySpeech(existing, order, fingerprint);
  const routes = await listVoiceRoutes(order.payer, order.ownVoice ?? null);
  if (!routes.length) throw new AppError("voice_unavailable");
  const holdMicro = Math.max(...routes.map((r) => priceSpeech(r.model, fingerprint.textLength)));
  try {
    await openSpeechJob(order, fingerprint, { modelKey: routes[0].model.key, holdMicro });
  } catch (err) {
    // The same id arrived twice at once: the other request made the job.
    if (isUniqueViolation(err)) return replaySpeech(await repo.findSpeechJob(order.jobId), order, fingerprint);
    if (err instanceof AppError && err.code === "balance_insufficient") throw new AppError(order.refusal, { data: err.data });
    throw err;
  }
  let audio: TSpokenAudio;
  try {
    audio = await speakOnRoutes(routes, order.text, order.ownVoice ? { ownVoiceId: order.ownVoice.providerVoiceId } : order.speaker, order.jobId, order.signal);
  } catch (err) {
    const failure = err instanceof SpeechFailedError ? err.failure : "upstream";
    await failSpeechJob(order, codeForFailure(failure), err);
    throw new AppError(failure === "content_input" ? "content_illegal" : "voice_unavailable", { cause: err });
  }
  return finishSpeechJob(order, fingerprint, audio);
}

/** The job row and its hold, together or not at all. */
async function openSpeechJob(order: TSpeechOrder, fingerprint: TFingerprint, o: { modelKey: string; holdMicro: number }) {
  await runTransaction(async (tx) => {
    await repo.insertSpeechJob(
      {
        id: order.jobId,
        ownerAccountId: order.payer,
        modelKey: o.modelKey,
        params: { ...fingerprint, voice: null, model: o.modelKey },
        holdMicro: o.holdMicro,
        origin: order.origin,
        originRef: order.originRef,
        appId: order.appId,
        callbackToken: randomToken(24),
        deadlineAt: new Date(Date.now() + JOB_DEADLINE_MS.speech),
      },
      tx,
    );
    await holdJobPrice(
      { jobId: order.jobId, payer: order.payer, amountMicro: o.holdMicro, memo: { kind: "speech", appId: order.appId, chars: fingerprint.textLength } },
      tx,
    );
  });
}

async function failSpeechJob(order: TSpeechOrder, errorCode: string, cause: unknown) {
  try {
    await runTransaction(async (tx) => {
      const ended = await repo.endSpeechJob(
        order.jobId,
        { state: "failed", errorCode, errorDetail: String((cause as Error)?.message ?? cause).slice(0, 500) },
        new Date(),
        tx,
      );
      if (ended) await settleJobPrice({ jobId: order.jobId, payer: order.payer, chargedMicro: 0, memo: { kind: "speech", outcome: "failed" } }, tx);
    });
  } catch (err) {
    // The hold stays in escrow until the deadline sweep releases it.
    logger.error({ err, jobId: order.jobId }, "speech: could not release a failed synthesis");
  }
}

/** Keeps the audio, charges the answering model's price and ends the job done, in one transaction. */
async function finishSpeechJob(order: TSpeechOrder, fingerprint: TFingerprint, audio: TSpokenAudio): Promise<TSpeech> {
  let fileKey: string;
  try {
    fileKey = await storeFile(`media/${order.payer}/${order.folder ?? "speech"}`, audio);
  } catch (err) {
    await failSpeechJob(order, "upload_failed", err);
    throw err;
  }
  const priceMicro = priceSpeech(audio.route.model, fingerprint.textLength);
  const { channel, provider } = audio.route.route;
  const charged = await runTransaction(async (tx) => {
    const ended = await repo.endSpeechJob(
      order.jobId,
      {
        state: "done",
        modelKey: audio.route.model.key,
        provider,
        channelId: channel.id,
        params: { ...fingerprint, voice: audio.voice, model: audio.route.model.key },
        outputs: [{ fileKey, mime: audio.mime, size: audio.bytes.length, width: null, height: null, durationMs: null, mediaItemId: null }],
        chargedMicro: priceMicro,
      },
      new Date(),
      tx,
    );
    if (!ended) return null;
    return settleJobPrice({ jobId: order.jobId, payer: order.payer, chargedMicro: priceMicro, memo: { kind: "speech", outcome: "done" } }, tx);
  });
  if (!charged) {
    // The deadline sweep ended it meanwhile (and released the hold): nothing was charged, nothing is kept.
    await deleteFiles([fileKey]);
    throw new AppError("voice_unavailable");
  }
  return {
    jobId: order.jobId,
    fileKey,
    url: toPublicFileUrl(fileKey),
    mime: audio.mime,
    bytes: audio.bytes,
    chargedMicro: charged.chargedMicro,
    replayed: false,
  };
}

/** The first result of a job asked for again. */
async function replaySpeech(job: repo.TSpeechJobRow | null, order: TSpeechOrder, fingerprint: TFingerprint): Promise<TSpeech> {
  if (!job) throw new AppError("repeat_action");
  const params = (job.params ?? {}) as Partial<TFingerprint>;
  const same =
    job.kind === "speech" &&
    job.ownerAccountId === order.payer &&
    job.appId === order.appId &&
    params.requester === fingerprint.requester &&
    params.textHash === fingerprint.textHash;
  if (!same) throw new AppError("idempotency_conflict");
  if (job.state === "failed") throw new AppError(job.errorCode === "content_illegal" ? "content_illegal" : "voice_unavailable");
  if (job.state !== "done") throw new AppError("repeat_action");
  const output = (job.outputs as { fileKey?: string; mime?: string }[])[0];
  const bytes = output?.fileKey ? await readStoredAudio(output.fileKey) : null;
  if (!output?.fileKey || !bytes) throw new AppError("voice_unavailable");
  return {
    jobId: job.id,
    fileKey: output.fileKey,
    url: toPublicFileUrl(output.fileKey),
    mime: output.mime ?? "audio/mpeg",
    bytes,
    chargedMicro: Number(job.chargedMicro),
    replayed: true,
  };
}

async function readStoredAudio(key: string) {
  const file = await getFileStore().get(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const c of file.stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The routes that may speak in a voice: an own voice's model alone, else every voice model. */
export async function listVoiceRoutes(accountId: string, ownVoice: TOwnVoice | null) {
  const routes = await listSpeechRoutes(accountId);
  return ownVoice ? routes.filter((r) => r.model.key === ownVoice.modelKey) : routes;
}

/** The announcers an app owner can choose: the voices of every family an enabled voice model speaks in. */
export async function listAvailableVoices(actor: { id: string }): Promise<TVoiceList> {
  const families = await listSpeechFamilies(actor.id);
  return {
    voices: families.flatMap((family) => VOICES[family].map((id) => ({ id, family }))),
    default_voice: families.length ? DEFAULT_VOICE[families[0]] : null,
  };
}
