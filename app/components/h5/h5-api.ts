// The H5 chat's calls to the app runtime (/api/v2/app/*) and to the voice endpoints.
import { apiRequest } from "../../lib/api-client";
import { readCsrfToken } from "../../lib/post-form-data";
import type { TChatApi } from "../chat/use-chat-stream";
import type { TEntitlementView } from "../../../server/apps/app-entitlements.service";

export const APP_SEND_PATH = "/api/v2/app/send_message/sse";

/** The chat hook's endpoints for an app; Q&A-style apps keep no context between questions. */
export function toAppChatApi(style: "conversation" | "qa"): TChatApi {
  return {
    sendPath: APP_SEND_PATH,
    stopPath: null,
    feedbackPath: "/api/v2/app/feedback",
    dialoguePath: (id) => `/api/v2/app/dialogues/${encodeURIComponent(id)}`,
    toBody: (appId, input) => ({ app_id: appId, variables: input.variables, ctype: 0, ufids: [], images: input.images?.length ? input.images : undefined }),
    keepContext: style === "conversation",
  };
}

export type TEntitlement = Pick<TEntitlementView, "basis" | "remainingToday" | "trialEndsAt" | "plans" | "refusal" | "purchase">;

export const fetchEntitlement = (appId: string) => apiRequest<TEntitlement>(`/api/v2/app/entitlement?app_id=${encodeURIComponent(appId)}`);

export type TAppDialogue = { id: string; title: string; updated_at?: string; created_at?: string };

/** The consumer's own dialogues with this app (newest first); the shape varies little, so read leniently. */
export async function fetchDialogues(appId: string): Promise<TAppDialogue[]> {
  const data = await apiRequest<unknown>(`/api/v2/app/dialogues?app_id=${encodeURIComponent(appId)}`);
  const list = Array.isArray(data)
    ? data
    : Array.isArray((data as { items?: unknown })?.items)
      ? (data as { items: unknown[] }).items
      : Array.isArray((data as { list?: unknown })?.list)
        ? (data as { list: unknown[] }).list
        : [];
  return list.flatMap((d) => {
    const r = d as Record<string, unknown>;
    return typeof r.id === "string"
      ? [
          {
            id: r.id,
            title: String(r.title ?? ""),
            updated_at: (r.updated_at ?? r.updatedAt) as string | undefined,
            created_at: (r.created_at ?? r.createdAt) as string | undefined,
          },
        ]
      : [];
  });
}

/**
 * The server's refusal, in the reader's language (the envelope's description). Anything else thrown
 * on the way (no network, a browser API's DOMException) is the caller's to word.
 */
export class H5RefusalError extends Error {}

/** The message to show for `err`: the server's own words, else the caller's localized fallback. */
export const refusalText = (err: unknown, fallback: string) => (err instanceof H5RefusalError && err.message ? err.message : fallback);

/** Multipart posts of the voice and image endpoints; refusals come back as the envelope's description. */
async function postForm<T>(path: string, form: FormData): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const csrf = readCsrfToken();
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const res = await fetch(path, { method: "POST", headers, body: form, credentials: "same-origin" });
  const envelope = (await res.json().catch(() => null)) as { status: number; description: string; data: T } | null;
  if (!envelope) throw new Error(res.statusText);
  if (envelope.status !== 200) throw new H5RefusalError(envelope.description);
  return envelope.data;
}

export function transcribeVoice(appId: string, audio: Blob) {
  const form = new FormData();
  form.set("app_id", appId);
  form.set("file", audio, audio.type.includes("mp4") ? "voice.m4a" : audio.type.includes("ogg") ? "voice.ogg" : "voice.webm");
  // The app in the query too: the server refuses an app without voice input before reading the upload.
  return postForm<{ text: string }>(`/api/v2/app/transcribe?app_id=${encodeURIComponent(appId)}`, form);
}

export function uploadChatImage(appId: string, image: File) {
  const form = new FormData();
  form.set("app_id", appId);
  form.set("file", image);
  return postForm<{ url: string }>(`/api/v2/app/image?app_id=${encodeURIComponent(appId)}`, form);
}

/** The spoken reply as audio; the server answers audio bytes, or an envelope when it refuses. */
export async function fetchSpeech(appId: string, text: string): Promise<Blob> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  const csrf = readCsrfToken();
  if (csrf) headers["X-CSRF-Token"] = csrf;
  // The request's own reference: a retry of it is charged once. getRandomValues works on plain
  // http too, where randomUUID does not exist.
  const jobId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  const body = JSON.stringify({ app_id: appId, text, job_id: jobId });
  const res = await fetch("/api/v2/app/speech", { method: "POST", headers, body, credentials: "same-origin" });
  if ((res.headers.get("content-type") ?? "").includes("application/json")) {
    const envelope = (await res.json()) as { description?: string };
    throw new H5RefusalError(envelope.description ?? "");
  }
  if (!res.ok) throw new Error(res.statusText);
  return res.blob();
}
