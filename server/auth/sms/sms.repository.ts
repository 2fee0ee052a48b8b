import { getDb, type TDbOrTx } from "../../db/client";
import type { SmsPurpose } from "../../db/generated/client";

export async function findLatestCodeTimes(phone: string, since: Date, tx: TDbOrTx = getDb()) {
  return tx.smsCode.findMany({ where: { phone, createdAt: { gte: since } }, orderBy: { createdAt: "desc" }, select: { createdAt: true } });
}

export async function insertCode(data: { phone: string; purpose: SmsPurpose; codeHash: string; expiresAt: Date }, tx: TDbOrTx = getDb()) {
  return tx.smsCode.create({ data, select: { id: true } });
}

export async function deleteCode(id: string, tx: TDbOrTx = getDb()) {
  await tx.smsCode.delete({ where: { id } });
}

export async function findLiveCode(phone: string, purpose: SmsPurpose, now: Date, tx: TDbOrTx = getDb()) {
  return tx.smsCode.findFirst({
    where: { phone, purpose, consumedAt: null, expiresAt: { gt: now } },
    orderBy: { createdAt: "desc" },
    select: { id: true, codeHash: true, attempts: true },
  });
}

export async function countAttempt(id: string, tx: TDbOrTx = getDb()) {
  await tx.smsCode.update({ where: { id }, data: { attempts: { increment: 1 } } });
}

/** Consumes a code once: two requests with the same code cannot both succeed. */
export async function consumeCode(id: string, now: Date, tx: TDbOrTx = getDb()) {
  const { count } = await tx.smsCode.updateMany({ where: { id, consumedAt: null }, data: { consumedAt: now } });
  return count === 1;
}

/** What the development provider "sent": only it writes here, and only administrators read it. */
export async function insertDevSmsMessage(data: { phone: string; text: string }, tx: TDbOrTx = getDb()) {
  await tx.devSmsMessage.create({ data, select: { id: true } });
}

export async function findDevSmsMessages(limit: number, tx: TDbOrTx = getDb()) {
  return tx.devSmsMessage.findMany({ orderBy: { id: "desc" }, take: limit, select: { phone: true, text: true, createdAt: true } });
}
