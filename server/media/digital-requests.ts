// A digital-human job's provider request, made when the job starts from the file keys its params
// name (digital-jobs.service.ts). Lip-sync and training providers fetch our files themselves, so a
// key becomes its public address: <PUBLIC_URL>/files/<key> (keys under media/ are public and
// unguessable). Without PUBLIC_URL no provider could reach them, and the job is refused.
import { getEnv } from "../env";
import { toPublicFileUrl } from "../uploads/uploads.service";
import type { TMediaJobKind } from "./generation.schema";
import { ProviderError, type TMediaRequest } from "./providers/provider";

/** Trainings make a reference at the provider (an avatar, a voice), not files. */
export const TRAINING_KINDS: readonly TMediaJobKind[] = ["avatar_training", "voice_clone"];
const DIGITAL_KINDS: readonly TMediaJobKind[] = ["lipsync", ...TRAINING_KINDS];

export const isTrainingKind = (kind: string) => (TRAINING_KINDS as readonly string[]).includes(kind);
export const isDigitalKind = (kind: string) => (DIGITAL_KINDS as readonly string[]).includes(kind);

type TKeyed = { fileKey: string; durationMs?: number | null };
export type TDigitalParams = {
  files: { video?: TKeyed; audio?: TKeyed; footage?: TKeyed; consent?: TKeyed; sample?: TKeyed };
  avatar?: { provider: string; avatarId: string } | null;
  name?: string;
  payer?: string;
};

/** Where a provider fetches one of our files. */
export function publicUrlOf(fileKey: string) {
  const origin = getEnv().PUBLIC_URL;
  if (!origin) throw new ProviderError("bad_request", "PUBLIC_URL is not set, so no provider can fetch the job's files");
  return `${origin.replace(/\/+$/, "")}${toPublicFileUrl(fileKey)}`;
}

function fileOf(params: TDigitalParams, name: keyof TDigitalParams["files"]) {
  const file = params.files?.[name];
  if (!file?.fileKey) throw new ProviderError("bad_request", `the job names no ${name} file`);
  return { url: publicUrlOf(file.fileKey), durationMs: file.durationMs ?? null };
}

export function buildDigitalRequest(job: { kind: TMediaJobKind; params: unknown }, upstreamModel: string): TMediaRequest {
  const params = job.params as TDigitalParams;
  const name = params.name ?? "";
  if (job.kind === "lipsync") {
    const avatarId = params.avatar?.avatarId;
    return { kind: "lipsync", model: upstreamModel, video: fileOf(params, "video"), audio: fileOf(params, "audio"), ...(avatarId ? { avatarId } : {}) };
  }
  if (job.kind === "avatar_training") {
    const consent = params.files?.consent?.fileKey ? { url: fileOf(params, "consent").url } : null;
    return { kind: "avatar_training", model: upstreamModel, name, footage: { url: fileOf(params, "footage").url }, consent };
  }
  if (job.kind === "voice_clone") return { kind: "voice_clone", model: upstreamModel, name, sample: { url: fileOf(params, "sample").url } };
  throw new ProviderError("bad_request", `${job.kind} is no digital-human job`);
}

/** Who the job's hold came from: a lip-sync may be paid by someone other than its owner (an app's owner). */
export function payerOf(job: { ownerAccountId: string; params: unknown }) {
  const payer = (job.params as TDigitalParams | null)?.payer;
  return typeof payer === "string" && payer ? payer : job.ownerAccountId;
}
