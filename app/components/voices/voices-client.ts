// The browser's side of personal voices: the tRPC calls of the /speechtr pages, the recording's
// upload (multipart), and the early checks that mirror the server's (it decides).
import { useCallback, useEffect, useRef, useState } from "react";
import { postFormData } from "../../lib/post-form-data";
import { callTrpc, trpc } from "../../lib/trpc";
import { VOICE_UPLOAD_FORMATS, VOICE_UPLOAD_MAX_BYTES, type TVoiceSampleKind } from "../../../server/digital/digital.schema";
import { VOICE_UPLOAD_PATH, type TDigitalVoice, type TDigitalVoiceList, type TVoicePackages, type TVoiceSource } from "../../../server/digital/voices.schema";

export type { TDigitalVoice, TDigitalVoiceList, TVoicePackages };

export const voicesApi = {
  list: () => callTrpc(() => trpc.digitalVoices.list.query()),
  packages: () => callTrpc(() => trpc.digitalVoices.packages.query()),
  buyPackage: (requestId: string) => callTrpc(() => trpc.digitalVoices.buyPackage.mutate({ requestId })),
  rename: (id: string, name: string) => callTrpc(() => trpc.digitalVoices.rename.mutate({ id, name })),
  remove: (id: string) => callTrpc(() => trpc.digitalVoices.remove.mutate({ id })),
  retry: (id: string) => callTrpc(() => trpc.digitalVoices.retry.mutate({ id })),
};

export type TVoiceSample = { blob: Blob; filename: string; source: TVoiceSource };

export function uploadVoice(sample: TVoiceSample, fields: { name: string; kind: TVoiceSampleKind }, fallbackError: string) {
  const form = new FormData();
  form.append("name", fields.name.trim());
  form.append("sample_kind", fields.kind);
  form.append("source", sample.source);
  form.append("file", sample.blob, sample.filename);
  return postFormData<TDigitalVoice>(VOICE_UPLOAD_PATH, form, { fallbackError });
}

const EXTENSION = /\.([a-z0-9]+)$/i;

/** The early check of a chosen file, by its size and name (the content decides on the server): an errors-namespace key, or null. */
export function checkVoiceFile(file: { size: number; name: string }) {
  if (file.size === 0) return "file_empty_or_prohibited";
  if (file.size > VOICE_UPLOAD_MAX_BYTES) return "file_too_large";
  const ext = EXTENSION.exec(file.name)?.[1]?.toLowerCase() ?? "";
  return (VOICE_UPLOAD_FORMATS as readonly string[]).includes(ext) ? null : "audio_type_not_allowed";
}

/** Voices still being checked are asked about often; ones in training (a day or two) now and then. */
export function pollDelayMs(voices: Pick<TDigitalVoice, "state">[]) {
  if (voices.some((v) => v.state === "checking")) return 3_000;
  return voices.some((v) => v.state === "training") ? 30_000 : null;
}

/** My voices, the platform's announcers and my packages, followed while any voice is on its way. */
export function useVoicesOverview() {
  const [list, setList] = useState<TDigitalVoiceList | null>(null);
  const [packages, setPackages] = useState<TVoicePackages | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const live = useRef(true);

  const load = useCallback(async () => {
    try {
      const [l, p] = await Promise.all([voicesApi.list(), voicesApi.packages()]);
      if (!live.current) return;
      setList(l);
      setPackages(p);
      setLoadError(null);
    } catch (err) {
      if (live.current) setLoadError(err);
    }
  }, []);
  useEffect(() => {
    live.current = true;
    void load();
    return () => {
      live.current = false;
    };
  }, [load]);

  const delay = list ? pollDelayMs(list.mine) : null;
  useEffect(() => {
    if (delay === null) return;
    const timer = setTimeout(() => void load(), delay);
    return () => clearTimeout(timer);
  }, [delay, list, load]);

  return { list, packages, loadError, reload: load };
}

/** My packages alone (the recording pages need to know whether a personal voice may be recorded). */
export function useVoicePackages() {
  const [packages, setPackages] = useState<TVoicePackages | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const load = useCallback(async () => {
    try {
      setPackages(await voicesApi.packages());
      setLoadError(null);
    } catch (err) {
      setLoadError(err);
    }
  }, []);
  useEffect(() => void load(), [load]);
  return { packages, loadError, reload: load };
}
