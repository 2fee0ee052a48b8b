// A recording's way to a voice, in the worker: measured (getFileWork().measureVoice), judged by the
// shared rules (judgeVoiceSample), then sent to be cloned as a media job (kind voice_clone). The
// job's end reaches the voice through a job-end hook inside the transaction that ends the job.
//   checking ──► check_failed                      (too short or long, too quiet, clipped, no sound)
//      └──────► training ──► ready                 (the provider's voice id, model and provider kept)
//      └──────► train_failed          ◄── training (no provider clones, the balance, the provider failed)
// A personal voice takes its package slot when it is sent to be cloned and gets it back when the
// clone fails; a voice customisation is paid like a training (held, charged when the voice exists).
import type { Job } from "bullmq";
import { runTransaction, type TTx } from "../db/transaction";
import { isAppError } from "../errors/app-error";
import type { TJobPayload } from "../jobs/jobs";
import { logger } from "../lib/logger";
import { submitVoiceClone } from "../media/digital-jobs.service";
import { getFileWork } from "../media/file-work";
import { onMediaJobEnded, type TEndedJob } from "../media/job-finish-hooks";
import { judgeVoiceSample, VOICE_CUSTOM_PRICE_MICRO, type TVoiceFacts } from "./digital.schema";
import { giveVoiceSlotBack, takeVoiceSlot } from "./voice-packages.service";
import * as repo from "./voices.repository";
import type { TVoiceCheck } from "./voices.schema";

export type TVoiceStepOutcome = "gone" | "refused" | "training" | "train_failed";

/** What the check found when the recording could not be read at all: no sound to clone. */
const UNREADABLE: TVoiceFacts = { durationMs: null, loudnessLufs: null, peakDb: null };

/** Measures the file; an unreadable one reads as no sound on the job's last attempt, and is tried again before. */
async function measure(key: string, voiceId: string, job?: Job): Promise<TVoiceFacts> {
  try {
    return await getFileWork().measureVoice(key);
  } catch (err) {
    const lastAttempt = !job || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    logger.warn({ err, voiceId, lastAttempt }, "measuring a voice recording failed");
    if (!lastAttempt) throw err;
    return UNREADABLE;
  }
}

/** The job "digital.voice-measure": a recording being checked is judged, and a good one sent to be cloned. */
export async function handleVoiceMeasure({ voiceId }: TJobPayload<"digital.voice-measure">, job?: Job): Promise<TVoiceStepOutcome> {
  const voice = await repo.findVoiceById(voiceId);
  if (!voice || voice.state !== "checking") return "gone";
  const facts = await measure(voice.sampleFileKey, voiceId, job);
  await repo.saveVoiceFacts(voiceId, facts);
  const problems = judgeVoiceSample(facts, voice.sampleKind === "custom" ? "custom" : "personal");
  const check: TVoiceCheck = { problems, facts };
  if (problems.length) {
    await repo.moveVoice(voiceId, ["checking"], { state: "check_failed", check });
    return "refused";
  }
  return startTraining(voice, check);
}

/** Ends a voice that could not be sent to be cloned, its slot (if it took one) given back. */
async function trainingRefused(voice: repo.TVoiceRow, errorCode: string, check: TVoiceCheck) {
  await runTransaction(async (tx) => {
    const moved = await repo.moveVoice(voice.id, ["checking"], { state: "train_failed", errorCode, check, packageId: null }, tx);
    if (moved && voice.packageId) await giveVoiceSlotBack(voice.packageId, tx);
  });
  return "train_failed" as const;
}

/** A personal voice's slot, taken once (a step run again keeps the one it took). */
async function takeSlot(voice: repo.TVoiceRow): Promise<repo.TVoiceRow | null> {
  if (voice.sampleKind !== "personal" || voice.packageId) return voice;
  return runTransaction(async (tx) => {
    await repo.lockAccountVoices(voice.ownerAccountId, tx);
    const packageId = await takeVoiceSlot(voice.ownerAccountId, new Date(), tx);
    if (!packageId) return null;
    return (await repo.moveVoice(voice.id, ["checking"], { packageId }, tx)) ? { ...voice, packageId } : null;
  });
}

async function startTraining(voice: repo.TVoiceRow, check: TVoiceCheck): Promise<TVoiceStepOutcome> {
  const withSlot = await takeSlot(voice);
  if (!withSlot) return trainingRefused(voice, "no_voice_package", check);
  // A step run again after a crash finds the clone it already ordered (the job names the voice).
  let jobId = await repo.findCloneJobOf(voice.id);
  if (!jobId) {
    try {
      const priceMicro = voice.sampleKind === "personal" ? 0 : VOICE_CUSTOM_PRICE_MICRO;
      ({ jobId } = await submitVoiceClone({
        ownerAccountId: voice.ownerAccountId,
        voiceId: voice.id,
        sampleKey: voice.sampleFileKey,
        name: voice.name,
        priceMicro,
      }));
    } catch (err) {
      if (!isAppError(err)) throw err;
      return trainingRefused(withSlot, err.code, check);
    }
  }
  // The clone may have ended already (its hook found the voice by the id in its params): then this moves nothing.
  await repo.moveVoice(voice.id, ["checking"], { state: "training", trainingJobId: jobId, check, errorCode: null });
  return "training";
}

/** The voice a clone job was ordered for: by the job's id, or (before the step kept it) by the id in its params. */
async function voiceOfJob(job: TEndedJob, tx: TTx) {
  const byJob = await repo.findVoiceByTrainingJob(job.id, tx);
  if (byJob) return byJob;
  const voiceId = (job.params as { voiceId?: unknown } | null)?.voiceId;
  const voice = typeof voiceId === "string" ? await repo.findVoiceById(voiceId, tx) : null;
  return voice && voice.ownerAccountId === job.ownerAccountId && voice.trainingJobId === null ? voice : null;
}

/** What a clone's end does to its voice (in the job's own transaction). */
export async function applyVoiceCloneEnd(job: TEndedJob, tx: TTx) {
  const voice = await voiceOfJob(job, tx);
  if (!voice || (voice.state !== "training" && voice.state !== "checking")) return;
  const providerVoiceId = job.state === "done" ? (job.result?.voiceId ?? null) : null;
  if (providerVoiceId) {
    const ran = await repo.findTrainingJob(job.id, tx);
    await repo.moveVoice(
      voice.id,
      ["training", "checking"],
      {
        state: "ready",
        trainingJobId: job.id,
        providerVoiceId,
        modelKey: job.result?.modelKey ?? ran?.modelKey ?? null,
        provider: job.result?.provider ?? ran?.provider ?? null,
        errorCode: null,
      },
      tx,
    );
    return;
  }
  const errorCode = job.state === "done" ? "generation_failed" : (job.errorCode ?? "training_failed");
  const moved = await repo.moveVoice(voice.id, ["training", "checking"], { state: "train_failed", trainingJobId: job.id, errorCode, packageId: null }, tx);
  if (moved && voice.packageId) await giveVoiceSlotBack(voice.packageId, tx);
}

/** Registers the hook in this process (the worker, where jobs end); calling it again changes nothing. */
export function registerVoiceHooks() {
  onMediaJobEnded(["voice_clone"], applyVoiceCloneEnd);
}
