// A media job's money: the price is held when the job is submitted, and settled once when it ends.
// The hold moves the price from the payer (gift credit first, then coins) into escrow under
// `media-hold:<job>`. Settling posts under `media-settle:<job>` whatever the outcome: the charged
// part goes from escrow to the platform's revenue and the rest back to the wallets it came from
// (coins before gift credit, the reverse of how it was taken). Because charge and release share one
// key, a job settled twice (a worker killed mid-job and resumed, a callback racing a poll) gets its
// first settlement back, and a second, different outcome is refused by the ledger itself.
import type { TTx } from "../db/transaction";
import { platform, post, readPostedLegs, spend, type TLeg } from "../money/ledger.service";

export const holdKey = (jobId: string) => `media-hold:${jobId}`;
export const settleKey = (jobId: string) => `media-settle:${jobId}`;

/** Holds the price; balance_insufficient (nothing written) when the payer has not enough. A free job holds nothing. */
export async function holdJobPrice(h: { jobId: string; payer: string; amountMicro: number; memo: Record<string, unknown> }, tx?: TTx) {
  if (h.amountMicro <= 0) return;
  await spend(
    {
      key: holdKey(h.jobId),
      kind: "media_hold",
      payer: h.payer,
      amount: h.amountMicro,
      credits: [{ account: platform("escrow"), amount: h.amountMicro }],
      memo: { ...h.memo, jobId: h.jobId, held: true },
    },
    tx,
  );
}

/** How a refund of `amount` goes back: to the coins the hold took first, then to the gift credit. */
export function refundLegs(holdLegs: TLeg[], amount: number): TLeg[] {
  const debits = holdLegs.filter((l) => l.amount < 0).sort((a, b) => Number(a.account.startsWith("gift:")) - Number(b.account.startsWith("gift:")));
  const out: TLeg[] = [];
  let left = amount;
  for (const d of debits) {
    const back = Math.min(left, -d.amount);
    if (back > 0) out.push({ account: d.account, amount: back });
    left -= back;
  }
  if (left !== 0) throw new Error(`media billing: refund of ${amount} exceeds the hold`);
  return out;
}

/**
 * Ends the hold: `chargedMicro` (at most the hold) to the platform, the rest back to the payer.
 * Answers what was charged. Nothing held (a free job): nothing to post.
 */
export async function settleJobPrice(s: { jobId: string; payer: string; chargedMicro: number; memo: Record<string, unknown> }, tx?: TTx) {
  const held = await readPostedLegs(holdKey(s.jobId), tx);
  const heldMicro = held.filter((l) => l.amount > 0).reduce((sum, l) => sum + l.amount, 0);
  if (heldMicro === 0) return { chargedMicro: 0, releasedMicro: 0 };
  const charged = Math.max(0, Math.min(s.chargedMicro, heldMicro));
  const released = heldMicro - charged;
  await post(
    {
      key: settleKey(s.jobId),
      kind: charged > 0 ? "media_charge" : "media_release",
      accountId: s.payer,
      memo: { ...s.memo, jobId: s.jobId, charged, released },
      legs: [
        { account: platform("escrow"), amount: -heldMicro },
        ...(charged > 0 ? [{ account: platform("platform_revenue"), amount: charged }] : []),
        ...(released > 0 ? refundLegs(held, released) : []),
      ],
    },
    tx,
  );
  return { chargedMicro: charged, releasedMicro: released };
}
