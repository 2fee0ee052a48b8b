// An app's spoken replies: POST /v2/app/speech reads a text aloud on request, and an H5 app that
// auto-plays reads each finished reply aloud before its stream closes (close.audio). Both are
// billed speech jobs (server/media/speech.service.ts) paid by whoever pays the app's chat channel
// fee: the app's owner, for a signed-in consumer and an anonymous visitor alike (billAppTurn in
// chat-charges.service.ts), refused app_owner_balance_insufficient when the owner cannot pay.
//
// Entitlement: speech is spoken only for a consumer whose entitlement to the app is valid right now
// (the owner; a free use left today; a trial running; a plan in force), and it consumes no use of
// its own: the reply it reads out was counted once already. The request checks it (assertMayUse,
// which writes nothing) before anything is held or asked; a turn's own audio is spoken right after
// the reply that claimed a use, and that claim is its entitlement.
//
// The announcer is the app's speaker when it is one of the listed voices (server/media/voices.ts);
// anything else stored (free text saved before the list) speaks the model's default voice.
import crypto from "node:crypto";
import { z } from "zod";
import { logger } from "../lib/logger";
import { speakBilled, type TSpeech } from "../media/speech.service";
import type { TReplySpeaker } from "../turns/sinks/sse-sink";
import { assertMayUse, type TConsumer, type TUseSource } from "./app-entitlements.service";
import type { TAppForTurn } from "./app-uses.repository";
import { limitRate, loadAppWithMode } from "./app-voice.service";

export const MAX_SPEECH_CHARS = 1000;
/** A reply's audio is waited for this long before the stream closes without it. */
export const REPLY_SPEECH_TIMEOUT_MS = 30_000;

export const ZSpeechInput = z.object({
  app_id: z.string().min(1).max(40),
  text: z.string().trim().min(1, "validation.required").max(MAX_SPEECH_CHARS, "validation.too_long"),
  /** The client's reference for this synthesis: sent again on a retry, it is charged once. */
  job_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, "validation.request_id")
    .optional(),
});
export type TSpeechInput = z.infer<typeof ZSpeechInput>;

/** Who asked, as a key that names nobody (a visitor's id is their credential, and the owner sees job rows). */
export function requesterOf(consumer: TConsumer) {
  const who = consumer.account ? `a:${consumer.account.id}` : `v:${consumer.visitorId ?? ""}`;
  return crypto.hash("sha256", who, "hex").slice(0, 32);
}

/** The text spoken in the app's announcer, billed to the app's owner. */
export async function speakForApp(input: TSpeechInput, consumer: TConsumer): Promise<TSpeech> {
  const app = await loadAppWithMode(input.app_id, consumer, { output: "voice" });
  await limitRate("voice", consumer);
  await assertMayUse(app, consumer);
  return speakBilled({
    jobId: input.job_id ?? `sp-${crypto.randomUUID()}`,
    payer: app.ownerAccountId,
    refusal: "app_owner_balance_insufficient",
    text: input.text,
    speaker: app.speaker,
    origin: "app",
    appId: app.id,
    originRef: null,
    requester: requesterOf(consumer),
  });
}

type TSpeakingApp = Pick<TAppForTurn, "id" | "ownerAccountId" | "outputModes" | "autoPlay" | "speaker">;

/**
 * What reads an H5 turn's finished reply aloud for close.audio: only for the H5 page of an app with
 * voice output and auto-play. A failure, a short balance or a reply past the speech limit gives no
 * audio; the reply's text stands either way.
 */
export function replySpeakerFor(app: TSpeakingApp, caller: { consumer: TConsumer; source: TUseSource }): TReplySpeaker | undefined {
  if (caller.source !== "h5" || !app.autoPlay || !app.outputModes.includes("voice")) return undefined;
  return async ({ messageId, content, signal }) => {
    const text = content.trim();
    if (!text || [...text].length > MAX_SPEECH_CHARS) return null;
    try {
      const spoken = await speakBilled({
        jobId: `${messageId}-speech`,
        payer: app.ownerAccountId,
        refusal: "app_owner_balance_insufficient",
        text,
        speaker: app.speaker,
        origin: "app",
        appId: app.id,
        originRef: messageId,
        requester: requesterOf(caller.consumer),
        signal: AbortSignal.any([signal, AbortSignal.timeout(REPLY_SPEECH_TIMEOUT_MS)]),
      });
      return spoken.url;
    } catch (err) {
      logger.info({ err, appId: app.id, messageId }, "a reply was not spoken");
      return null;
    }
  };
}
