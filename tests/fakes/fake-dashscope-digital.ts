// The DashScope fake's digital-human parts. VideoRetalk is a task on the first-and-last-frame
// path told apart by `model: "videoretalk"` ({input: {video_url, audio_url}, parameters:
// {video_extension}}); the fake checks the body and the task then runs as any video task (its
// outcomes include "no_face" and "too_long", with the codes below). CosyVoice voice enrollment
// (POST /api/v1/services/audio/tts/customization, model voice-enrollment) answers create_voice at
// once with a voice_id, query_voice with DEPLOYING for `pollsUntilDone` queries and then OK (or
// UNDEPLOYED when the outcome is "failed"), and list_voice the voices under a prefix.
import crypto from "node:crypto";
import type { TDashscopeRefusal } from "./fake-dashscope-checks";

export const CUSTOMIZATION_PATH = "/api/v1/services/audio/tts/customization";

/** How VideoRetalk words the failures a digital-human job must tell apart. */
export const RETALK_FAILURES = {
  no_face: { code: "InvalidFile.Content", message: "No human face was detected in the input video." },
  too_long: { code: "InvalidFile.Duration", message: "The duration of the input audio exceeds the limit of 120 seconds." },
};

const invalid = (message: string): TDashscopeRefusal => ({ status: 400, code: "InvalidParameter", message });
const isUrl = (v: unknown) => typeof v === "string" && /^https?:\/\/\S+$/.test(v);

export function isRetalkBody(body: any) {
  return body?.model === "videoretalk";
}

export function checkRetalkBody(body: any): TDashscopeRefusal | null {
  if (!body?.input || typeof body.input !== "object") return invalid("Field required: input");
  if (!isUrl(body.input.video_url)) return invalid("input.video_url must be a public http(s) URL.");
  if (!isUrl(body.input.audio_url)) return invalid("input.audio_url must be a public http(s) URL.");
  const extension = body.parameters?.video_extension;
  if (extension !== undefined && typeof extension !== "boolean") return invalid("parameters.video_extension must be a boolean.");
  return null;
}

export type TFakeVoice = { voiceId: string; prefix: string; targetModel: string; url: string; status: "DEPLOYING" | "OK" | "UNDEPLOYED"; queries: number };
export type TEnrollmentBehaviour = { outcome?: string; pollsUntilDone?: number; submitError?: string };

/** The voices one fake holds, and the answer to one enrollment call. */
export function createEnrollment(submitRefusal: (b: TEnrollmentBehaviour) => TDashscopeRefusal | null) {
  const voices = new Map<string, TFakeVoice & { behaviour: TEnrollmentBehaviour }>();
  const ok = (output: object) => ({ status: 200, body: { request_id: crypto.randomUUID(), output, usage: { count: 1 } } });
  const refused = (r: TDashscopeRefusal) => ({ status: r.status, body: { request_id: crypto.randomUUID(), code: r.code, message: r.message } });

  function create(input: any, behaviour: TEnrollmentBehaviour) {
    if (typeof input.target_model !== "string" || !/^cosyvoice-v\d/.test(input.target_model))
      return refused(invalid("target_model must be a CosyVoice model."));
    if (typeof input.prefix !== "string" || !/^[a-z0-9]{1,9}$/.test(input.prefix)) return refused(invalid("prefix: lower-case letters and digits, under 10."));
    if (!isUrl(input.url)) return refused(invalid("url must be a public http(s) URL."));
    const refusal = submitRefusal(behaviour);
    if (refusal) return refused(refusal);
    const voiceId = `${input.target_model}-${input.prefix}-${crypto.randomBytes(16).toString("hex")}`;
    voices.set(voiceId, {
      voiceId,
      prefix: input.prefix,
      targetModel: input.target_model,
      url: input.url,
      status: "DEPLOYING",
      queries: 0,
      behaviour: { ...behaviour },
    });
    return ok({ voice_id: voiceId });
  }

  function query(voiceId: unknown) {
    const voice = typeof voiceId === "string" ? voices.get(voiceId) : undefined;
    if (!voice) return refused({ status: 400, code: "BadRequest.ResourceNotExist", message: "The voice does not exist." });
    voice.queries++;
    if (voice.status === "DEPLOYING" && voice.queries > (voice.behaviour.pollsUntilDone ?? 1))
      voice.status = voice.behaviour.outcome === "failed" ? "UNDEPLOYED" : "OK";
    const now = new Date().toISOString().replace("T", " ").slice(0, 19);
    return ok({ gmt_create: now, gmt_modified: now, status: voice.status, target_model: voice.targetModel, resource_link: voice.url });
  }

  return {
    voices,
    handle(body: any, behaviour: TEnrollmentBehaviour) {
      if (body?.model !== "voice-enrollment") return refused(invalid("Model not exist."));
      const input = body.input ?? {};
      if (input.action === "create_voice") return create(input, behaviour);
      if (input.action === "query_voice") return query(input.voice_id);
      if (input.action === "list_voice") {
        const list = [...voices.values()].filter((v) => !input.prefix || v.prefix === input.prefix);
        return ok({ voice_list: list.map((v) => ({ voice_id: v.voiceId, status: v.status, gmt_create: "", gmt_modified: "" })) });
      }
      return refused(invalid(`Unknown action ${String(input.action)}.`));
    },
  };
}
