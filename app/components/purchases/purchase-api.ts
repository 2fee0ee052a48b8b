// The browser's calls for buying (the H5 plan sheet and /detail): the offer, and a purchase with
// the request id made once per confirm dialog (a double click buys once). api-client appends the
// page's touser to the URL; it is also sent in the body so the server reads it either way.
import { formatZ as formatMicroZ, formatZBalance } from "../../../server/money/money-format";
import type { TOffer } from "../../../server/money/purchases/purchases.service";
import type { TPurchaseView } from "../../../server/money/purchases/purchases.schema";
import { apiRequest } from "../../lib/api-client";
import { TOUSER } from "../../lib/carry-query";

export type { TOffer };
export type TOfferPlan = TOffer["plans"][number];

export const fetchOffer = (target: { appId: string } | { agentId: string }) =>
  apiRequest<TOffer>(
    "appId" in target
      ? `/api/v2/purchase/offer?app_id=${encodeURIComponent(target.appId)}`
      : `/api/v2/purchase/offer?agent_id=${encodeURIComponent(target.agentId)}`,
  );

function touserOfPage() {
  if (typeof window === "undefined") return undefined;
  return new URLSearchParams(window.location.search).get(TOUSER) ?? window.sessionStorage?.getItem(TOUSER) ?? undefined;
}

export const newRequestId = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : fallbackUuid());

function fallbackUuid() {
  // Plain-HTTP pages have no crypto.randomUUID (not a secure context): build a v4 uuid by hand.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

type TBought = { purchase: TPurchaseView; replayed: boolean };

export const buyAppPlan = (appId: string, planId: string, requestId: string) =>
  apiRequest<TBought>("/api/v2/purchase/app_plan", { body: { app_id: appId, plan_id: planId, request_id: requestId, touser: touserOfPage() } });

export const buyAgent = (agentId: string, requestId: string) =>
  apiRequest<TBought>("/api/v2/purchase/agent", { body: { agent_id: agentId, request_id: requestId, touser: touserOfPage() } });

/** Prices may be set to the micro: shown with every digit they have (server/money/money-format.ts). */
export const formatZ = (micro: number | null | undefined) => formatMicroZ(micro);
/** The buyer's balance: rounded down to the fen, never more than is there. */
export { formatZBalance };

export const BALANCE_INSUFFICIENT_STATUS = 420001;
