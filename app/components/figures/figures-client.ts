// The browser's side of figures: the tRPC calls, the filming upload (multipart, with the upload's
// progress, which fetch cannot report), and the early size checks (the server decides the type from
// the content).
import { ApiError, type TEnvelope } from "../../lib/api-client";
import { readCsrfToken } from "../../lib/post-form-data";
import { callTrpc, trpc } from "../../lib/trpc";
import { FILMING_LIMITS, type TFilmingPurpose, type TKeySettings } from "../../../server/digital/digital.schema";
import type { TFigureView } from "../../../server/digital/figures.schema";
import { checkFileSize } from "../../../server/uploads/upload-limits";

export type { TFigureView };

export const FIGURE_UPLOAD_PATH = "/api/v1/digital/figures";

export const figuresApi = {
  list: async () => (await callTrpc(() => trpc.digitalFigures.list.query())).items,
  get: (id: string) => callTrpc(() => trpc.digitalFigures.get.query({ id })),
  rename: (id: string, name: string) => callTrpc(() => trpc.digitalFigures.rename.mutate({ id, name })),
  remove: (id: string) => callTrpc(() => trpc.digitalFigures.remove.mutate({ id })),
  saveKey: (id: string, key: TKeySettings) => callTrpc(() => trpc.digitalFigures.saveKey.mutate({ id, ...key })),
  orderTraining: (id: string) => callTrpc(() => trpc.digitalFigures.orderTraining.mutate({ id })),
  setSale: (id: string, priceMicro: number | null) => callTrpc(() => trpc.digitalFigures.setSale.mutate({ id, priceMicro })),
  shop: (page: number) => callTrpc(() => trpc.digitalFigures.shop.query({ page })),
  buy: (id: string, priceMicro: number) => callTrpc(() => trpc.digitalFigures.buy.mutate({ id, priceMicro })),
};

/** Where a figure's consent clip for its training order is sent. */
export const consentPath = (id: string) => `${FIGURE_UPLOAD_PATH}/${encodeURIComponent(id)}/consent`;

/** The early check of a chosen filming or greeting video: an errors-namespace key, or null. */
export const checkFilmingFile = (file: { size: number }, purpose: TFilmingPurpose) => checkFileSize(file, FILMING_LIMITS[purpose]);

export type TUploadProgress = { loaded: number; total: number };

/**
 * Sends the form with XMLHttpRequest, reporting the bytes sent, and answers the envelope's data or
 * throws ApiError with its localized description. A proxy's own refusal page is `fallbackError`.
 */
export function uploadFigureForm(
  form: FormData,
  opts: { fallbackError: string; onProgress: (p: TUploadProgress) => void; path?: string },
): Promise<TFigureView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", opts.path ?? FIGURE_UPLOAD_PATH);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    const csrf = readCsrfToken();
    if (csrf) xhr.setRequestHeader("X-CSRF-Token", csrf);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress({ loaded: e.loaded, total: e.total });
    };
    xhr.onerror = () => reject(new ApiError(0, opts.fallbackError, null));
    xhr.onload = () => {
      let envelope: TEnvelope<TFigureView> | null;
      try {
        envelope = JSON.parse(xhr.responseText) as TEnvelope<TFigureView>;
      } catch {
        envelope = null;
      }
      if (!envelope) return reject(new ApiError(xhr.status, opts.fallbackError, null));
      if (envelope.status === 110003) window.location.assign(`/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`);
      if (envelope.status !== 200) return reject(new ApiError(envelope.status, envelope.description, envelope.data));
      resolve(envelope.data);
    };
    xhr.send(form);
  });
}

/** Whether the worker still has the figure's files in hand (the page keeps asking meanwhile). */
export const isWorking = (figure: Pick<TFigureView, "state" | "stage">) => figure.state === "checking" || figure.stage === "preparing";
