import { getDb, type TDbOrTx } from "../db/client";
import type { TCertificationStatus } from "./certification.schema";

const CERTIFICATION = {
  id: true,
  accountId: true,
  realName: true,
  idNumberHint: true,
  avatarPhotoUrl: true,
  idFrontUrl: true,
  idBackUrl: true,
  certificateUrl: true,
  introduction: true,
  status: true,
  rejectReason: true,
  reviewedAt: true,
  createdAt: true,
} as const;

export async function findLatestCertification(accountId: string, tx: TDbOrTx = getDb()) {
  return tx.certification.findFirst({ where: { accountId }, orderBy: { createdAt: "desc" }, select: CERTIFICATION });
}

/** Whether the account has an application in one of these states. */
export async function hasCertificationIn(accountId: string, statuses: TCertificationStatus[], tx: TDbOrTx = getDb()) {
  return (await tx.certification.count({ where: { accountId, status: { in: statuses } } })) > 0;
}

export async function insertCertification(
  data: {
    accountId: string;
    realName: string;
    idNumberEncrypted: string;
    idNumberHint: string;
    avatarPhotoUrl: string;
    idFrontUrl: string;
    idBackUrl: string;
    certificateUrl: string | null;
    introduction: string;
  },
  tx: TDbOrTx = getDb(),
) {
  return tx.certification.create({ data, select: CERTIFICATION });
}

export async function findCertificationById(id: string, tx: TDbOrTx = getDb()) {
  return tx.certification.findUnique({ where: { id }, select: CERTIFICATION });
}

export async function listCertifications(where: { status: TCertificationStatus }, tx: TDbOrTx = getDb()) {
  return tx.certification.findMany({
    where,
    orderBy: { createdAt: "asc" },
    take: 200,
    select: { ...CERTIFICATION, account: { select: { account: true, nickname: true } } },
  });
}

/** The application one of this account's files belongs to, if any. */
export async function findCertificationByFileUrl(accountId: string, url: string, tx: TDbOrTx = getDb()) {
  return tx.certification.findFirst({
    where: { accountId, OR: [{ avatarPhotoUrl: url }, { idFrontUrl: url }, { idBackUrl: url }, { certificateUrl: url }] },
    select: { id: true, accountId: true },
  });
}

/** Records a review only while the application is still pending: two reviewers cannot both decide. */
export async function reviewPendingCertification(
  id: string,
  data: { status: "approved" | "rejected"; rejectReason: string | null; reviewedById: string; reviewedAt: Date },
  tx: TDbOrTx = getDb(),
) {
  const { count } = await tx.certification.updateMany({ where: { id, status: "pending" }, data });
  return count === 1;
}

/** Serialises applications of one account: the row lock is held until the transaction ends. */
export async function lockAccount(accountId: string, tx: TDbOrTx) {
  await tx.$queryRaw`SELECT id FROM account WHERE id = ${accountId} FOR UPDATE`;
}

/** Adds a role once, in place, without overwriting roles granted meanwhile. */
export async function grantRole(accountId: string, role: "enterprise_developer", tx: TDbOrTx = getDb()) {
  await tx.$executeRaw`UPDATE account SET roles = array_append(COALESCE(roles, '{}'), ${role}::"Role"), updated_at = now() WHERE id = ${accountId} AND NOT (${role}::"Role" = ANY(COALESCE(roles, '{}')))`;
}
