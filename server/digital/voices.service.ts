// Personal voices (the /speechtr pages): a recording made in the browser or uploaded, checked by the
// worker (voice-training.service.ts), then cloned by a provider into a voice speech can use.
// - A personal voice (50-90 s) needs a voice package with a free slot, a voice customisation
//   (5-30 s) the balance for its price; either refusal comes before anything is written.
// - The recording is kept under the owner's public media folder (media/<account>/voices/) under an
//   unguessable key: providers fetch it by its URL.
// - Another account's voice is not found, on every verb. Removing keeps the row (a video may still
//   name the voice) and deletes the recording.
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { enqueueJob } from "../jobs/jobs";
import { logger } from "../lib/logger";
import { listAvailableVoices } from "../media/speech.service";
import { getWallet } from "../money/ledger.service";
import type { TUploadedFile } from "../uploads/multipart";
import { deleteFiles, storeFile, toPublicFileUrl } from "../uploads/uploads.service";
import { VOICE_CUSTOM_PRICE_MICRO, type TVoiceProblem } from "./digital.schema";
import { acceptVoiceFile } from "./voice-sample-file";
import { countFreeSlots } from "./voice-packages.service";
import * as repo from "./voices.repository";
import {
  ownSpeakerId,
  ZVoiceCheck,
  type TDigitalVoice,
  type TDigitalVoiceList,
  type TRenameVoiceInput,
  type TVoiceIdInput,
  type TVoiceUploadFields,
} from "./voices.schema";

type TActor = { id: string };

function problemsOf(check: unknown): TVoiceProblem[] {
  const parsed = ZVoiceCheck.safeParse(check);
  return parsed.success ? parsed.data.problems : [];
}

export function toVoiceView(row: repo.TVoiceRow): TDigitalVoice {
  return {
    id: row.id,
    name: row.name,
    sampleKind: row.sampleKind === "custom" ? "custom" : "personal",
    source: row.source === "recorded" ? "recorded" : "uploaded",
    state: row.state,
    durationMs: row.durationMs,
    problems: problemsOf(row.check),
    errorCode: row.errorCode,
    sampleUrl: row.sampleFileKey ? toPublicFileUrl(row.sampleFileKey) : null,
    speakerId: ownSpeakerId(row.id),
    createdAt: row.createdAt.toISOString(),
  };
}

async function loadVoice(actor: TActor, id: string) {
  const row = await repo.findVoice(actor.id, id);
  if (!row) throw new AppError("not_found");
  return row;
}

export async function listDigitalVoices(actor: TActor): Promise<TDigitalVoiceList> {
  const [rows, stock] = await Promise.all([repo.listVoices(actor.id), listAvailableVoices(actor)]);
  return { mine: rows.map(toVoiceView), stock: stock.voices };
}

export async function getDigitalVoice(actor: TActor, { id }: TVoiceIdInput): Promise<TDigitalVoice> {
  return toVoiceView(await loadVoice(actor, id));
}

export async function renameDigitalVoice(actor: TActor, { id, name }: TRenameVoiceInput): Promise<TDigitalVoice> {
  if (!(await repo.renameVoice(actor.id, id, name))) throw new AppError("not_found");
  return getDigitalVoice(actor, { id });
}

/** The row stays, without its recording; a training under way goes on and its end is ignored (a failed one still gives its slot back). */
export async function removeDigitalVoice(actor: TActor, { id }: TVoiceIdInput, now = new Date()): Promise<{ id: string }> {
  const removed = await repo.markVoiceDeleted(actor.id, id, now);
  if (!removed) throw new AppError("not_found");
  await deleteFiles([removed.sampleFileKey]);
  return { id };
}

/**
 * Only a check that never ran (a lost queue job) is tried again. A recording that was refused, or
 * whose clone failed, would fail the same way: the owner records again.
 */
export async function retryDigitalVoice(actor: TActor, { id }: TVoiceIdInput): Promise<TDigitalVoice> {
  const row = await loadVoice(actor, id);
  if (row.state === "check_failed" || row.state === "train_failed") throw new AppError("voice_retry_refused");
  if (row.state === "checking") await requestVoiceMeasure(row.id, `retry-${Date.now()}`);
  return toVoiceView(row);
}

/** Before anything is stored: a personal voice needs a free package slot, a customisation its price in the balance. */
async function assertCanTrain(actor: TActor, kind: TVoiceUploadFields["sample_kind"], now: Date) {
  if (kind === "personal") {
    if ((await countFreeSlots(actor.id, now)).free < 1) throw new AppError("no_voice_package");
    return;
  }
  const wallet = await getWallet(actor.id);
  if (wallet.available < VOICE_CUSTOM_PRICE_MICRO) {
    throw new AppError("balance_insufficient", { data: { needed: VOICE_CUSTOM_PRICE_MICRO, available: wallet.available } });
  }
}

export async function uploadDigitalVoice(actor: TActor, file: TUploadedFile | undefined, fields: TVoiceUploadFields, now = new Date()): Promise<TDigitalVoice> {
  const accepted = acceptVoiceFile(file);
  await assertCanTrain(actor, fields.sample_kind, now);
  const key = await storeFile(`media/${actor.id}/voices`, accepted);
  let row: repo.TVoiceRow;
  try {
    row = await withTransaction(async (tx) => {
      // Again under the account's lock: two recordings at once cannot both count on the last slot.
      await repo.lockAccountVoices(actor.id, tx);
      if (fields.sample_kind === "personal" && (await countFreeSlots(actor.id, now, tx)).free < 1) throw new AppError("no_voice_package");
      return repo.createVoice({ ownerAccountId: actor.id, name: fields.name, sampleKind: fields.sample_kind, source: fields.source, sampleFileKey: key }, tx);
    });
  } catch (err) {
    await deleteFiles([key]);
    throw err;
  }
  // After the commit: the worker reads the row on another connection.
  await requestVoiceMeasure(row.id);
  return toVoiceView(row);
}

/** Queues the recording's check. A queue that is down leaves the voice checking; retry queues it again. */
async function requestVoiceMeasure(voiceId: string, attempt = "first") {
  try {
    await enqueueJob("digital.voice-measure", { voiceId }, { jobId: `voice-measure-${voiceId}-${attempt}`, attempts: 3 });
  } catch (err) {
    logger.error({ err, voiceId }, "could not queue a voice recording's check");
  }
}

/** A ready voice of the owner's, as speech needs it (for the videos' voice fields), or null. */
export async function findReadyVoice(ownerAccountId: string, voiceId: string) {
  const row = await repo.findVoice(ownerAccountId, voiceId);
  if (row?.state !== "ready" || !row.modelKey || !row.providerVoiceId) return null;
  return { id: row.id, name: row.name, modelKey: row.modelKey, providerVoiceId: row.providerVoiceId, provider: row.provider };
}
