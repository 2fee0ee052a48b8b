// The only queries of personal voice packages. A slot is taken and given back by single UPDATEs
// whose conditions keep `0 <= usedSlots <= slots` whatever runs at the same time.
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";

const PACKAGE = { id: true, slots: true, usedSlots: true, priceMicro: true, ledgerKey: true, expiresAt: true, createdAt: true } as const;
export type TVoicePackageRow = Prisma.VoicePackageGetPayload<{ select: typeof PACKAGE }>;

export function listPackages(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.voicePackage.findMany({ where: { accountId }, select: PACKAGE, orderBy: [{ expiresAt: "desc" }, { id: "desc" }] });
}

export function findPackageByLedgerKey(ledgerKey: string, tx: TDbOrTx = getDb()) {
  return tx.voicePackage.findUnique({ where: { ledgerKey }, select: { ...PACKAGE, accountId: true } });
}

export function createPackage(data: { accountId: string; slots: number; priceMicro: number; ledgerKey: string; expiresAt: Date }, tx: TDbOrTx = getDb()) {
  return tx.voicePackage.create({ data: { ...data, priceMicro: BigInt(data.priceMicro) }, select: PACKAGE });
}

/** Unexpired packages with a slot left, the soonest to expire first (the slot taken first). */
export function listOpenPackages(accountId: string, now: Date, tx: TDbOrTx = getDb()) {
  return tx.voicePackage.findMany({
    where: { accountId, expiresAt: { gt: now }, usedSlots: { lt: tx.voicePackage.fields.slots } },
    select: PACKAGE,
    orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
  });
}

/** Takes one slot of the package if it still has one and has not expired; answers whether it did. */
export async function takeSlotOf(packageId: string, now: Date, tx: TDbOrTx = getDb()) {
  const taken = await tx.$executeRaw`
    UPDATE voice_package SET used_slots = used_slots + 1
    WHERE id = ${packageId} AND used_slots < slots AND expires_at > ${now}`;
  return taken > 0;
}

export async function giveSlotBack(packageId: string, tx: TDbOrTx = getDb()) {
  await tx.$executeRaw`UPDATE voice_package SET used_slots = used_slots - 1 WHERE id = ${packageId} AND used_slots > 0`;
}
