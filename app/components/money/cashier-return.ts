// The round trip through the sandbox's cashier page: the page that made an order sends the payer
// there with where to come back to, and the cashier comes back with #pay_order=<id>. A hash, not a
// query value: every navigation carries the query along, and the mark must be read once, here.
import { useEffect, useState } from "react";
import type { TPaymentOrderView } from "../../../server/money/payments/payments.schema";
import { getOrder } from "./recharge-api";

export const PAY_ORDER_MARK = "pay_order";

/** The cashier URL for an order's pay_url: back to this page afterwards (or `returnTo`), with the claim of a paid registration. */
export function cashierUrl(payUrl: string, opts: { returnTo?: string; claim?: string } = {}): string {
  const url = new URL(payUrl, window.location.origin);
  url.searchParams.set("return", opts.returnTo ?? window.location.pathname + window.location.search);
  if (opts.claim) url.searchParams.set("claim", opts.claim);
  return url.pathname + url.search;
}

export function goToCashier(payUrl: string, opts: { returnTo?: string; claim?: string } = {}) {
  window.location.assign(cashierUrl(payUrl, opts));
}

/** Where the cashier sends the payer back: the page's path with the order marked after "#". */
export function returnHref(returnTo: string, orderId: string) {
  return `${returnTo.split("#")[0]}#${PAY_ORDER_MARK}=${encodeURIComponent(orderId)}`;
}

let mark: string | null | undefined;
const cameBack = new Set<string>();
let taken = false;

/** The order the payer came back from the cashier with, read from the address once (which then loses the mark). */
function readMark(): string | null {
  if (typeof window === "undefined") return null;
  if (mark === undefined) {
    const m = new RegExp(`(?:^#|&)${PAY_ORDER_MARK}=([A-Za-z0-9_-]{1,64})`).exec(window.location.hash);
    mark = m ? m[1] : null;
    if (mark) {
      cameBack.add(mark);
      window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
    }
  }
  return mark;
}

/** Whether the payer came back from the cashier with this order: then it is polled, not sent there again. */
export function cameBackWith(orderId: string) {
  readMark();
  return cameBack.has(orderId);
}

/** The order the payer came back with, taken once by the first part of the page that handles it. */
export function takeReturnedOrderId(): string | null {
  const id = readMark();
  if (!id || taken) return null;
  taken = true;
  return id;
}

let lookup: Promise<TPaymentOrderView | null> | null = null;

/**
 * For a signed-in payer's page: the order of `purpose` they came back with from the cashier, as it
 * stands now; the first part of the page asking for that purpose gets it, the others null.
 */
export function useReturnedOrder(purpose: string): TPaymentOrderView | null {
  const [order, setOrder] = useState<TPaymentOrderView | null>(null);
  useEffect(() => {
    const id = readMark();
    if (!id) return;
    lookup ??= getOrder(id).catch(() => null);
    let live = true;
    void lookup.then((o) => {
      if (!live || !o || o.purpose !== purpose || taken) return;
      taken = true;
      setOrder(o);
    });
    return () => {
      live = false;
    };
  }, [purpose]);
  return order;
}

/** For a recharge dialog's opener: the top-up the payer came back with, to show the dialog on until closed. */
export function useResumedTopup() {
  const returned = useReturnedOrder("topup");
  const [resume, setResume] = useState<TPaymentOrderView | null>(null);
  useEffect(() => {
    if (returned) setResume(returned);
  }, [returned]);
  return { resume, clear: () => setResume(null) };
}
