// Withdrawals (/withdrawal, /my_withdrawal, /admin/withdrawals). A withdrawer asks for an amount of
// their coins (never gift credit); the coins are frozen in the same transaction as the row, with
// the labour tax and the received amount fixed then. A platform administrator marks it arrived
// (frozen → tax withheld + payout) or abnormal with a note (frozen → back to spendable). Every move
// goes through the ledger under a key derived from the withdrawal, so a retried request or a second
// click moves nothing twice.
import crypto from "node:crypto";
import { runTransaction } from "../../db/transaction";
import { AppError } from "../../errors/app-error";
import { sealSecret, openSecret } from "../../lib/secret-box";
import { assertRole, hasRole } from "../../accounts/access";
import type { TSessionAccount } from "../../accounts/accounts.schema";
import { platform, post, wallet } from "../ledger.service";
import { MICRO, toYuan, WITHDRAWAL_MIN_MICRO } from "../money.constants";
import { computeLabourTaxMicro } from "./labour-tax";
import { assertWithdrawalMove } from "./withdrawal-states";
import * as repo from "./withdrawals.repository";
import type {
  TListWithdrawalsInput,
  TMarkAbnormalInput,
  TPreviewWithdrawalInput,
  TStaffMayWithdrawInput,
  TSubmitWithdrawalInput,
  TWithdrawalForReview,
  TWithdrawalPage,
  TWithdrawalPreview,
  TWithdrawalState,
  TWithdrawalView,
} from "./withdrawals.schema";

type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;
const PAGE = 50;
const yuan2 = (micro: number | bigint) => Math.round(toYuan(micro) * 100) / 100;

/** Deterministic from the account and the client's request id: the same request finds the same row. */
export function withdrawalIdOf(accountId: string, requestId: string) {
  return `wd${crypto.createHash("sha256").update(`${accountId}:${requestId}`).digest("hex").slice(0, 23)}`;
}

function maskIdNumber(id: string) {
  return `${id.slice(0, 4)}${"*".repeat(id.length - 8)}${id.slice(-4)}`;
}

/** The full ID number for the administrators' tax return; null when it was sealed under another key (one such row must not hide the queue). */
function openIdNumber(sealed: string): string | null {
  try {
    return openSecret(sealed);
  } catch {
    return null;
  }
}

function maskPhone(phone: string) {
  return phone.length >= 11 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone;
}

function assertMinimum(amountMicro: number) {
  if (amountMicro < WITHDRAWAL_MIN_MICRO) throw new AppError("withdrawal_below_minimum", { params: { min: WITHDRAWAL_MIN_MICRO / MICRO } });
}

function toPreview(amountMicro: number): TWithdrawalPreview {
  const r = computeLabourTaxMicro(amountMicro);
  return { amount: yuan2(r.amountMicro), tax: yuan2(r.taxMicro), received: yuan2(r.receivedMicro) };
}

function toView(row: repo.TWithdrawalRow): TWithdrawalView {
  return {
    id: row.id,
    state: row.state,
    amount: yuan2(row.amountMicro),
    tax: yuan2(row.taxMicro),
    received: yuan2(row.receivedMicro),
    real_name: row.realName,
    id_number_hint: row.idNumberHint,
    phone: maskPhone(row.phone),
    note: row.note,
    created_at: row.createdAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
  };
}

/** The tax and the received amount of a withdrawal of `amount` yuan, before confirming. */
export function previewWithdrawal({ amount }: TPreviewWithdrawalInput): TWithdrawalPreview {
  assertMinimum(amount);
  return toPreview(amount);
}

/**
 * Whether the account may withdraw: a member of an enterprise that forbids its staff to withdraw
 * may not, unless they are its super administrator (the one who sets the switch).
 */
export async function mayWithdraw(accountId: string): Promise<boolean> {
  const who = await repo.findWithdrawer(accountId);
  if (!who) throw new AppError("not_found");
  if (!who.enterpriseId || who.enterprise?.staffMayWithdraw !== false) return true;
  return who.roles.includes("enterprise_super_admin");
}

export async function submitWithdrawal(actor: TActor, input: TSubmitWithdrawalInput): Promise<TWithdrawalView> {
  assertMinimum(input.amount);
  if (!(await mayWithdraw(actor.id))) throw new AppError("withdrawal_forbidden");
  const id = withdrawalIdOf(actor.id, input.request_id);
  const tax = computeLabourTaxMicro(input.amount);
  await runTransaction(async (tx) => {
    const inserted = await repo.insertWithdrawalIfAbsent(
      {
        id,
        accountId: actor.id,
        realName: input.real_name,
        idNumberSealed: sealSecret(input.id_number),
        idNumberHint: maskIdNumber(input.id_number),
        phone: input.phone,
        amountMicro: tax.amountMicro,
        taxMicro: tax.taxMicro,
        receivedMicro: tax.receivedMicro,
      },
      tx,
    );
    if (!inserted) return;
    // Coins only: a wallet without enough refuses (balance_insufficient) and the row goes with it.
    await post(
      {
        key: `wd:${id}:submit`,
        kind: "withdrawal_submit",
        accountId: actor.id,
        memo: { withdrawalId: id },
        legs: [
          { account: wallet("spendable", actor.id), amount: -tax.amountMicro },
          { account: wallet("frozen", actor.id), amount: tax.amountMicro },
        ],
      },
      tx,
    );
  });
  const row = await repo.findWithdrawalById(id);
  if (!row) throw new AppError("not_found");
  // The same request id with another amount is another request.
  if (Number(row.amountMicro) !== tax.amountMicro) throw new AppError("idempotency_conflict");
  return toView(row);
}

export async function listMyWithdrawals(actor: TActor, { state, cursor }: TListWithdrawalsInput): Promise<TWithdrawalPage<TWithdrawalView>> {
  const rows = await repo.listWithdrawalsOf(actor.id, { state }, { cursor, take: PAGE + 1 });
  return { items: rows.slice(0, PAGE).map(toView), next_cursor: rows.length > PAGE ? rows[PAGE - 1].id : null };
}

/** One of the actor's own withdrawals; anyone else's answers not_found. */
export async function getMyWithdrawal(actor: TActor, id: string): Promise<TWithdrawalView> {
  const row = await repo.findWithdrawalById(id);
  if (!row || row.accountId !== actor.id) throw new AppError("not_found");
  return toView(row);
}

export async function listWithdrawalsForReview(admin: TActor, { state, cursor }: TListWithdrawalsInput): Promise<TWithdrawalPage<TWithdrawalForReview>> {
  assertRole(admin, "platform_admin");
  const rows = await repo.listWithdrawalsForReview({ state }, { cursor, take: PAGE + 1 });
  const page = rows.slice(0, PAGE);
  const names = new Map((await repo.findAccountNames([...new Set(page.map((r) => r.accountId))])).map((a) => [a.id, a]));
  return {
    items: page.map((r) => ({
      ...toView(r),
      phone: r.phone,
      account: names.get(r.accountId)?.account ?? "",
      nickname: names.get(r.accountId)?.nickname ?? "",
      id_number: openIdNumber(r.idNumberSealed),
    })),
    next_cursor: rows.length > PAGE ? rows[PAGE - 1].id : null,
  };
}

/**
 * An administrator's decision. The row moves only from submitted (checked in the UPDATE, so two
 * administrators cannot both decide) and its ledger posting is written in the same transaction.
 * Asking for the state it is already in changes nothing and answers the row; any other move is
 * withdrawal_state_refused.
 */
async function decideWithdrawal(admin: TActor, id: string, to: Exclude<TWithdrawalState, "submitted">, note: string | null): Promise<TWithdrawalView> {
  assertRole(admin, "platform_admin");
  await runTransaction(async (tx) => {
    const row = await repo.findWithdrawalById(id, tx);
    if (!row) throw new AppError("not_found");
    if (row.state === to) return;
    assertWithdrawalMove(row.state, to);
    if (!(await repo.moveWithdrawal(id, "submitted", { state: to, note, reviewedById: admin.id, reviewedAt: new Date() }, tx))) {
      const now = await repo.findWithdrawalById(id, tx);
      if (now?.state === to) return;
      throw new AppError("withdrawal_state_refused");
    }
    const amount = Number(row.amountMicro);
    const frozen = { account: wallet("frozen", row.accountId), amount: -amount };
    const legs =
      to === "arrived"
        ? [frozen, { account: platform("tax_withheld"), amount: Number(row.taxMicro) }, { account: platform("payout"), amount: Number(row.receivedMicro) }]
        : [frozen, { account: wallet("spendable", row.accountId), amount }];
    await post(
      {
        key: `wd:${id}:${to === "arrived" ? "arrive" : "return"}`,
        kind: to === "arrived" ? "withdrawal_arrive" : "withdrawal_return",
        accountId: row.accountId,
        memo: { withdrawalId: id },
        legs,
      },
      tx,
    );
  });
  const row = await repo.findWithdrawalById(id);
  return toView(row!);
}

export function markWithdrawalArrived(admin: TActor, id: string) {
  return decideWithdrawal(admin, id, "arrived", null);
}

export function markWithdrawalAbnormal(admin: TActor, id: string, { note }: TMarkAbnormalInput) {
  return decideWithdrawal(admin, id, "abnormal", note);
}

/** The enterprise switch, for its super administrator: null for everyone else. */
export async function getStaffWithdrawPolicy(actor: TActor) {
  if (!actor.enterpriseId || !hasRole(actor, "enterprise_super_admin")) return null;
  const row = await repo.findEnterprisePolicy(actor.enterpriseId);
  return row ? { enterprise: row.name, staff_may_withdraw: row.staffMayWithdraw } : null;
}

export async function setStaffWithdrawPolicy(actor: TActor, { allowed }: TStaffMayWithdrawInput) {
  if (!actor.enterpriseId || !hasRole(actor, "enterprise_super_admin")) throw new AppError("no_permission");
  const row = await repo.setStaffMayWithdraw(actor.enterpriseId, allowed);
  return { enterprise: row.name, staff_may_withdraw: row.staffMayWithdraw };
}
