// The browser's side of the multimedia library: uploads (multipart, POST /api/v1/media), the
// tRPC calls, the early size check, and the paged list state the pages share.
import { useCallback, useState } from "react";
import { postFormData } from "../../lib/post-form-data";
import { callTrpc, trpc } from "../../lib/trpc";
import { checkFileSize, MEDIA_IMAGE_LIMITS, MEDIA_VIDEO_LIMITS } from "../../../server/uploads/upload-limits";
import type { TMediaItem, TMediaKind, TMediaPage, TMediaQuota } from "../../../server/media/media.schema";

export type { TMediaItem, TMediaKind, TMediaPage, TMediaQuota };

const VIDEO_NAME = /\.(mp4|mov|webm)$/i;

/** The early check (the server decides by the content): an errors-namespace key, or null. */
export function checkMediaFile(file: { size: number; type?: string; name: string }) {
  const video = file.type?.startsWith("video/") || VIDEO_NAME.test(file.name);
  return checkFileSize(file, video ? MEDIA_VIDEO_LIMITS : MEDIA_IMAGE_LIMITS);
}

export function uploadMediaFile(file: Blob, opts: { name?: string; fallbackError: string }) {
  const form = new FormData();
  if (opts.name?.trim()) form.append("name", opts.name.trim());
  form.append("file", file);
  return postFormData<TMediaItem>("/api/v1/media", form, { fallbackError: opts.fallbackError });
}

export const fetchMediaPage = (input: { kind?: TMediaKind; page: number; pageSize: number }) => callTrpc(() => trpc.media.list.query(input));
export const fetchMediaQuota = () => callTrpc(() => trpc.media.quota.query());
export const renameMediaItem = (id: string, name: string) => callTrpc(() => trpc.media.rename.mutate({ id, name }));
export const deleteMediaItem = (id: string) => callTrpc(() => trpc.media.delete.mutate({ id }));

/** One page of the library with its filter, reloaded after every change. */
export function useMediaPage(initial: { page: TMediaPage; quota: TMediaQuota }, kind0?: TMediaKind) {
  const [data, setData] = useState(initial.page);
  const [quota, setQuota] = useState(initial.quota);
  const [kind, setKindState] = useState<TMediaKind | undefined>(kind0);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async (next: { kind?: TMediaKind; page: number; pageSize: number }) => {
    setLoading(true);
    try {
      const [page, q] = await Promise.all([fetchMediaPage(next), fetchMediaQuota()]);
      // A page emptied by a delete falls back to the last page that has items.
      if (!page.items.length && page.total && next.page > 1) {
        setData(await fetchMediaPage({ ...next, page: Math.ceil(page.total / next.pageSize) }));
      } else setData(page);
      setQuota(q);
    } finally {
      setLoading(false);
    }
  }, []);

  return {
    data,
    quota,
    kind,
    loading,
    reload: () => load({ kind, page: data.page, pageSize: data.pageSize }),
    setKind: (k: TMediaKind | undefined) => {
      setKindState(k);
      return load({ kind: k, page: 1, pageSize: data.pageSize });
    },
    setPage: (page: number, pageSize = data.pageSize) => load({ kind, page: pageSize === data.pageSize ? page : 1, pageSize }),
  };
}

export function formatSize(bytes: number, t: (key: string, o: Record<string, unknown>) => string) {
  return bytes >= 1024 * 1024 ? t("size_mb", { value: (bytes / 1024 / 1024).toFixed(1) }) : t("size_kb", { value: Math.max(1, Math.round(bytes / 1024)) });
}
