// Personal voice packages: bought from the balance (gift credit first, then coins, as every purchase),
// each the right to train VOICE_PACKAGE.slots personal voices before it expires.
// - The purchase is one ledger posting keyed by the buyer's request, and the package row is written
//   in the same transaction: a retried or doubled request buys one package, and a buyer who cannot
//   pay gets balance_insufficient with nothing written.
// - A slot is taken when a checked recording is sent to be cloned, from the package that expires
//   first, and given back when the clone fails. A recording still being checked holds a slot too
//   (slotsLeft counts it), so two recordings cannot both count on the last one.
import { isUniqueViolation, runTransaction, type TTx } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { platform, spend } from "../money/ledger.service";
import { VOICE_PACKAGE } from "./digital.schema";
import * as repo from "./voice-packages.repository";
import { countPersonalAwaitingSlot } from "./voices.repository";
import type { TBuyVoicePackageInput, TVoicePackage, TVoicePackages } from "./voices.schema";

type TActor = { id: string };
const DAY_MS = 86_400_000;

function toView(row: repo.TVoicePackageRow, now: Date): TVoicePackage {
  return {
    id: row.id,
    slots: row.slots,
    usedSlots: row.usedSlots,
    priceMicro: Number(row.priceMicro),
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt <= now,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Slots of unexpired packages still free for a new personal recording (those being checked count as taken). */
export async function countFreeSlots(accountId: string, now: Date, tx?: TTx) {
  const open = await repo.listOpenPackages(accountId, now, tx);
  const free = open.reduce((sum, p) => sum + p.slots - p.usedSlots, 0);
  return { free: Math.max(0, free - (await countPersonalAwaitingSlot(accountId, tx))), soonest: open[0]?.expiresAt ?? null };
}

export async function listVoicePackages(actor: TActor, now = new Date()): Promise<TVoicePackages> {
  const [rows, slots] = await Promise.all([repo.listPackages(actor.id), countFreeSlots(actor.id, now)]);
  return {
    packages: rows.map((r) => toView(r, now)),
    slotsLeft: slots.free,
    expiresAt: slots.soonest?.toISOString() ?? null,
    offer: { priceMicro: VOICE_PACKAGE.priceMicro, slots: VOICE_PACKAGE.slots, days: VOICE_PACKAGE.days },
  };
}

const ledgerKeyOf = (accountId: string, requestId: string) => `voice_package:${accountId}:${requestId}`;

/** Buys one package; the same request again answers the package it bought. */
export async function buyVoicePackage(actor: TActor, { requestId }: TBuyVoicePackageInput, now = new Date()): Promise<TVoicePackage> {
  const ledgerKey = ledgerKeyOf(actor.id, requestId);
  try {
    return await runTransaction(async (tx) => {
      const bought = await repo.findPackageByLedgerKey(ledgerKey, tx);
      if (bought) return toView(bought, now);
      await spend(
        {
          key: ledgerKey,
          kind: "purchase",
          payer: actor.id,
          amount: VOICE_PACKAGE.priceMicro,
          credits: [{ account: platform("platform_revenue"), amount: VOICE_PACKAGE.priceMicro }],
          memo: { what: "voice_package", slots: VOICE_PACKAGE.slots, days: VOICE_PACKAGE.days },
        },
        tx,
      );
      const expiresAt = new Date(now.getTime() + VOICE_PACKAGE.days * DAY_MS);
      return toView(
        await repo.createPackage({ accountId: actor.id, slots: VOICE_PACKAGE.slots, priceMicro: VOICE_PACKAGE.priceMicro, ledgerKey, expiresAt }, tx),
        now,
      );
    });
  } catch (err) {
    // The same request, twice at once: the other one bought it.
    if (!isUniqueViolation(err)) throw err;
    const bought = await repo.findPackageByLedgerKey(ledgerKey);
    if (!bought || bought.accountId !== actor.id) throw new AppError("idempotency_conflict", { cause: err });
    return toView(bought, now);
  }
}

/** Takes a slot for a recording being cloned; answers the package it came from, or null when none is left. */
export async function takeVoiceSlot(accountId: string, now: Date, tx: TTx): Promise<string | null> {
  for (const p of await repo.listOpenPackages(accountId, now, tx)) {
    if (await repo.takeSlotOf(p.id, now, tx)) return p.id;
  }
  return null;
}

export async function giveVoiceSlotBack(packageId: string, tx: TTx) {
  await repo.giveSlotBack(packageId, tx);
}
