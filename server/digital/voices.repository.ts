// The only queries of personal voices. Every read and write a request makes names the owner, so
// another account's voice is simply not there; the worker's steps find a voice by its id or by the
// training job it waits for. A removed voice keeps its row (a video may still name it) with
// deletedAt set.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { TVoiceState } from "./voices.schema";

const VOICE = {
  id: true,
  ownerAccountId: true,
  name: true,
  sampleKind: true,
  source: true,
  sampleFileKey: true,
  durationMs: true,
  check: true,
  state: true,
  trainingJobId: true,
  packageId: true,
  provider: true,
  modelKey: true,
  providerVoiceId: true,
  errorCode: true,
  createdAt: true,
} as const;
export type TVoiceRow = Prisma.DigitalVoiceGetPayload<{ select: typeof VOICE }>;

const live = { deletedAt: null };

export function findVoice(ownerAccountId: string, id: string, tx: TDbOrTx = getDb()) {
  return tx.digitalVoice.findFirst({ where: { id, ownerAccountId, ...live }, select: VOICE });
}

/** The worker's read: the voice whatever its owner (the job names it), unless removed. */
export function findVoiceById(id: string, tx: TDbOrTx = getDb()) {
  return tx.digitalVoice.findFirst({ where: { id, ...live }, select: VOICE });
}

/** The voice a training job works for, removed or not (a removed one still gives its slot back). */
export function findVoiceByTrainingJob(trainingJobId: string, tx: TDbOrTx = getDb()) {
  return tx.digitalVoice.findUnique({ where: { trainingJobId }, select: { ...VOICE, deletedAt: true } });
}

export function listVoices(ownerAccountId: string, tx: TDbOrTx = getDb()) {
  return tx.digitalVoice.findMany({ where: { ownerAccountId, ...live }, select: VOICE, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

export function createVoice(data: { ownerAccountId: string; name: string; sampleKind: string; source: string; sampleFileKey: string }, tx: TDbOrTx = getDb()) {
  return tx.digitalVoice.create({ data: { ...data, state: "checking" }, select: VOICE });
}

export async function renameVoice(ownerAccountId: string, id: string, name: string, tx: TDbOrTx = getDb()) {
  const { count } = await tx.digitalVoice.updateMany({ where: { id, ownerAccountId, ...live }, data: { name } });
  return count > 0;
}

/** Marks the voice removed and answers it as it was, or null when it is not the owner's (or gone already). */
export async function markVoiceDeleted(ownerAccountId: string, id: string, now: Date, tx: TDbOrTx = getDb()) {
  const row = await findVoice(ownerAccountId, id, tx);
  if (!row) return null;
  const { count } = await tx.digitalVoice.updateMany({ where: { id, ownerAccountId, ...live }, data: { deletedAt: now } });
  return count ? row : null;
}

/**
 * Moves the voice to `data.state` (with the other fields) only from one of `from`: a step that
 * lost a race to another (a second worker, a removal) changes nothing. Answers whether it moved.
 */
export async function moveVoice(
  id: string,
  from: readonly TVoiceState[],
  data: Prisma.DigitalVoiceUncheckedUpdateManyInput & { state?: TVoiceState },
  tx: TDbOrTx = getDb(),
) {
  const { count } = await tx.digitalVoice.updateMany({ where: { id, state: { in: [...from] } }, data });
  return count > 0;
}

/** What the measuring step found, kept whatever the judgement. */
export function saveVoiceFacts(id: string, facts: { durationMs: number | null; loudnessLufs: number | null; peakDb: number | null }, tx: TDbOrTx = getDb()) {
  return tx.digitalVoice.updateMany({
    where: { id },
    data: { durationMs: facts.durationMs === null ? null : Math.round(facts.durationMs), loudnessLufs: facts.loudnessLufs, peakDb: facts.peakDb },
  });
}

/** Serialises one account's personal recordings against its package slots. */
export async function lockAccountVoices(accountId: string, tx: TDbOrTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('digital_voices:' || ${accountId}))`;
}

/** Personal recordings still being checked: each will need a slot, which it has not taken yet. */
export function countPersonalAwaitingSlot(ownerAccountId: string, tx: TDbOrTx = getDb()) {
  return tx.digitalVoice.count({ where: { ownerAccountId, sampleKind: "personal", state: "checking", packageId: null, ...live } });
}

/** The model and provider a finished training job ran on. */
export function findTrainingJob(jobId: string, tx: TDbOrTx = getDb()) {
  return tx.mediaJob.findUnique({ where: { id: jobId }, select: { modelKey: true, provider: true } });
}

/** The clone job already ordered for the voice, if any (the job names the voice as its origin). */
export async function findCloneJobOf(voiceId: string, tx: TDbOrTx = getDb()) {
  const job = await tx.mediaJob.findFirst({ where: { kind: "voice_clone", originRef: voiceId }, select: { id: true }, orderBy: { createdAt: "desc" } });
  return job?.id ?? null;
}
