// The browser side of the gateway's REST: the administrators' models and channels, and an
// account's own channels (private key service). Bodies travel as JSON: weights, prices and
// flags are numbers and booleans, not form text.
import { apiRequest } from "../../lib/api-client";
import type { TChannelView } from "../../../server/models/models.schema";

export type TChannelScope = "admin" | "own";
export type TChannelRow = TChannelView & { recent_failures?: number };
export type TChannelTest = { ok: boolean; ms: number; error: string | null };

const CHANNELS: Record<TChannelScope, string> = { admin: "/api/v1/admin/channels", own: "/api/v1/account/channels" };

export function sendJson<T = unknown>(path: string, method: "GET" | "POST" | "PATCH" | "DELETE", body?: Record<string, unknown>) {
  // apiRequest's method list predates the gateway's PATCH routes; it passes the verb through as is.
  return apiRequest<T>(path, { method: method as "PUT", body: body ?? (method === "POST" ? {} : undefined), json: true });
}

export const channelsApi = (scope: TChannelScope) => ({
  list: () => sendJson<TChannelRow[]>(CHANNELS[scope], "GET"),
  create: (body: Record<string, unknown>) => sendJson<TChannelRow>(CHANNELS[scope], "POST", body),
  update: (id: string, body: Record<string, unknown>) => sendJson<TChannelRow>(`${CHANNELS[scope]}/${encodeURIComponent(id)}`, "PATCH", body),
  remove: (id: string) => sendJson<{ id: string }>(`${CHANNELS[scope]}/${encodeURIComponent(id)}`, "DELETE"),
  test: (id: string) => sendJson<TChannelTest>(`${CHANNELS[scope]}/${encodeURIComponent(id)}/test`, "POST"),
  setEnabled: (id: string, enabled: boolean) => sendJson<TChannelRow>(`${CHANNELS[scope]}/${encodeURIComponent(id)}/${enabled ? "enable" : "disable"}`, "POST"),
});

export const modelsApi = {
  create: (body: Record<string, unknown>) => sendJson("/api/v1/admin/models", "POST", body),
  update: (id: string, body: Record<string, unknown>) => sendJson(`/api/v1/admin/models/${encodeURIComponent(id)}`, "PATCH", body),
  remove: (id: string) => sendJson(`/api/v1/admin/models/${encodeURIComponent(id)}`, "DELETE"),
};
