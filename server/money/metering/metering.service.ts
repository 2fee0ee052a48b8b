// The one metering function: what a metered service costs and its charge to an
// account. Later features (PPT, lip-sync, workshop runs, speech) call chargeMetered with a ref
// that names the thing charged (a deck, a video, a run, a synthesis), so a retried request charges
// once: the key is `meter:<what>:<ref>`. Chat, agent-use and storage charges have their own keys
// (chat-charges.service.ts, storage-charges.service.ts) but price from the same constants.
import type { TTx } from "../../db/transaction";
import { lipSyncPriceMicro, PRICES, speechPriceMicro } from "../money.constants";
import { platform, spend, type TPosted } from "../ledger.service";
import { meteringSettings } from "./metering-settings";

/**
 * What is metered and what `quantity` counts for it:
 * ppt — decks generated; lip_sync — seconds of video (each started 5 s is a unit);
 * workshop_run — runs (borne by the workshop's developer, who is the account charged);
 * speech — characters synthesised (priced in US dollars at USD_CNY_RATE).
 */
export const METERED = ["ppt", "lip_sync", "workshop_run", "speech"] as const;
export type TMetered = (typeof METERED)[number];

const REF = /^[\w.\-@/]{1,120}$/;

/** The price in micro-Z of `quantity` of `what`. */
export function priceMetered(what: TMetered, quantity: number, usdToCny = meteringSettings().usdToCny): number {
  // Callers are our own features, which count what they made: a bad quantity is a bug, not input.
  if (!Number.isSafeInteger(quantity) || quantity <= 0) throw new Error(`metering: quantity ${quantity} is not a positive integer`);
  switch (what) {
    case "ppt":
      return quantity * PRICES.pptMicro;
    case "lip_sync":
      return lipSyncPriceMicro(quantity);
    case "workshop_run":
      return quantity * PRICES.workshopRunMicro;
    case "speech":
      return speechPriceMicro(quantity, usdToCny);
  }
}

export type TMeteredCharge = { accountId: string; what: TMetered; ref: string; quantity: number; memo?: Record<string, unknown> };

/**
 * Charges `accountId` (gift credit first, then coins) the price of `quantity` of `what`, to the
 * platform's revenue, once per `what` and `ref`. A second call with the same ref and quantity gives
 * the first result (replayed); the same ref with another quantity is refused (idempotency_conflict).
 * Not enough money: balance_insufficient, and nothing is written.
 */
export async function chargeMetered(c: TMeteredCharge, tx?: TTx): Promise<TPosted & { amountMicro: number }> {
  if (!(METERED as readonly string[]).includes(c.what)) throw new Error(`metering: unknown service ${c.what}`);
  if (!REF.test(c.ref)) throw new Error(`metering: bad ref ${c.ref}`);
  const amountMicro = priceMetered(c.what, c.quantity);
  const posted = await spend(
    {
      key: `meter:${c.what}:${c.ref}`,
      kind: "metered_charge",
      payer: c.accountId,
      amount: amountMicro,
      credits: [{ account: platform("platform_revenue"), amount: amountMicro }],
      memo: { ...c.memo, what: c.what, quantity: c.quantity },
    },
    tx,
  );
  return { ...posted, amountMicro };
}
