// An administrator's refund of a purchase: the exact reverse of its ledger legs under
// `refund:<purchaseId>` — the developer, the sharer and the platform give back what they got, and
// the buyer gets back into the wallets it came from (gift credit to gift, coins to coins). Refunding
// it again (a double click, a second tab) answers the first refund and moves nothing. Refused when
// the developer or sharer no longer has the coins (balance_insufficient; nothing written). A
// refunded purchase grants no more use.
import { AppError } from "../../errors/app-error";
import type { TTx } from "../../db/transaction";
import { post, reverseLegs } from "../ledger.service";
import * as repo from "./purchases.repository";
import type { TListPurchasesQuery } from "./purchases.schema";
import { toPurchaseView } from "./purchases.service";

export const refundKey = (purchaseId: string) => `refund:${purchaseId}`;

export async function refundPurchase(by: { id: string } | null, purchaseId: string, now = new Date()) {
  if (typeof purchaseId !== "string" || !purchaseId || purchaseId.length > 40) throw new AppError("not_found");
  return repo.runInTransaction(async (tx) => {
    const found = await repo.findPurchase(purchaseId, tx);
    if (!found) throw new AppError("not_found");
    await repo.lockPurchase(purchaseId, tx);
    const p = (await repo.findPurchase(purchaseId, tx))!;
    if (p.refundedAt) return firstRefund(p, tx);
    const entries = await repo.listLedgerEntries(p.ledgerTransactionId, tx);
    if (entries.length < 2) throw new AppError("refund_refused");
    const memo = await repo.findLedgerMemo(p.ledgerTransactionId, tx);
    const posted = await post(
      {
        key: refundKey(p.id),
        kind: "refund",
        accountId: p.buyerAccountId,
        memo: { ...memo, purchaseId: p.id, ...(by ? { refundedBy: by.id } : {}) },
        legs: reverseLegs(entries),
      },
      tx,
    );
    if (!(await repo.markRefunded(p.id, now, tx))) throw new AppError("refund_refused");
    return { purchase: toPurchaseView({ ...p, refundedAt: now }), ledger_transaction_id: posted.id };
  });
}

/** The refund already made of `p`: what its first request answered. */
async function firstRefund(p: repo.TPurchaseRow, tx: TTx) {
  const first = await repo.findLedgerTransactionId(refundKey(p.id), tx);
  if (!first) throw new AppError("refund_refused");
  return { purchase: toPurchaseView(p), ledger_transaction_id: first };
}

function readCursor(cursor: string | undefined) {
  const m = /^(\d+)_(.+)$/.exec(cursor ?? "");
  return m ? { at: new Date(Number(m[1])), id: m[2] } : undefined;
}

/** /admin/purchases: newest first, with buyer, app or agent and sharer names. */
export async function listPurchasesForAdmin(q: TListPurchasesQuery) {
  const { rows, accounts, apps, agents } = await repo.listPurchases(
    { buyerAccountId: q.buyer || undefined, appId: q.app_id || undefined, refunded: q.refunded === undefined ? undefined : q.refunded === "yes" },
    { before: readCursor(q.cursor), limit: q.limit + 1 },
  );
  const page = rows.slice(0, q.limit);
  const who = (id: string | null) => (id ? (accounts.get(id)?.nickname ?? accounts.get(id)?.account ?? id) : null);
  const last = page[page.length - 1];
  return {
    items: page.map((p) => ({
      ...toPurchaseView(p),
      buyer: who(p.buyerAccountId),
      sharer: who(p.sharerAccountId),
      target_name: (p.appId ? apps.get(p.appId)?.name : p.agentId ? agents.get(p.agentId)?.name : null) ?? null,
    })),
    next_cursor: rows.length > q.limit && last ? `${last.createdAt.getTime()}_${last.id}` : null,
  };
}
export type TAdminPurchaseItem = Awaited<ReturnType<typeof listPurchasesForAdmin>>["items"][number];
