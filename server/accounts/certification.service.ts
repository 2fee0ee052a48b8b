// Developer certification: an account applies with its real name, ID number and
// pictures; a platform administrator approves (the account becomes a certified developer,
// role enterprise_developer) or rejects with a reason, after which the account may apply again.
import { type TDbOrTx, withTransaction } from "../db/transaction";
import { AppError, isAppError } from "../errors/app-error";
import { sealSecret } from "../lib/secret-box";
import { getFileStore } from "../uploads/file-store";
import { isValidKey } from "../uploads/stored-file";
import { acceptDocument, acceptImage, deleteFiles, storeFile, type TAcceptedFile } from "../uploads/uploads.service";
import { CERTIFICATE_FILE_MAX_BYTES, CERTIFICATION_IMAGE_LIMITS } from "../uploads/upload-limits";
import { assertOwned, assertRole, hasRole } from "./access";
import type { TSessionAccount } from "./accounts.schema";
import * as repo from "./certification.repository";
import {
  CERTIFICATE_FIELD,
  CERTIFICATION_IMAGE_FIELDS,
  type TListCertificationsInput,
  type TRejectCertificationInput,
  ZSubmitCertificationInput,
  type TCertificationForReview,
  type TOwnCertification,
} from "./certification.schema";

type TRow = NonNullable<Awaited<ReturnType<typeof repo.findLatestCertification>>>;
type TActor = Pick<TSessionAccount, "id" | "roles" | "enterpriseId">;
export type TCertificationUpload = { fields: Record<string, string>; files: Record<string, { bytes: Buffer } | undefined> };

/** Certification files are private: served by the API after an access check, never under /files. */
export const CERTIFICATION_FOLDER = "certifications";
const PRIVATE_FILES_PATH = "/api/v1/files/";

function toPrivateFileUrl(key: string) {
  return `${PRIVATE_FILES_PATH}${key}`;
}

function toOwn(row: TRow): TOwnCertification {
  return {
    id: row.id,
    status: row.status,
    reject_reason: row.rejectReason,
    real_name: row.realName,
    id_number_hint: row.idNumberHint,
    created_at: row.createdAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
  };
}

export async function getOwnCertification(accountId: string): Promise<TOwnCertification | null> {
  const row = await repo.findLatestCertification(accountId);
  return row ? toOwn(row) : null;
}

/** One pending application at a time, and none once certified. */
async function assertMayApply(accountId: string, tx?: TDbOrTx) {
  if (await repo.hasCertificationIn(accountId, ["pending", "approved"], tx)) throw new AppError("repeat_action");
}

/** The refusal of a file names the form field it came from, so the form can point at it. */
function checkFile<T>(field: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (!isAppError(err)) throw err;
    const data = err.data && typeof err.data === "object" ? err.data : {};
    throw new AppError(err.code, { params: err.params, data: { ...data, field } });
  }
}

export async function submitCertification(account: TActor, upload: TCertificationUpload): Promise<TOwnCertification> {
  const input = ZSubmitCertificationInput.parse(upload.fields);
  const accepted: TAcceptedFile[] = CERTIFICATION_IMAGE_FIELDS.map((field) =>
    checkFile(field, () => acceptImage(upload.files[field]?.bytes, CERTIFICATION_IMAGE_LIMITS)),
  );
  const certificateBytes = upload.files[CERTIFICATE_FIELD]?.bytes;
  const certificate = certificateBytes
    ? checkFile(CERTIFICATE_FIELD, () => acceptDocument(certificateBytes, { maxBytes: CERTIFICATE_FILE_MAX_BYTES, kinds: ["pdf", "jpeg", "png"] }))
    : null;
  // Checked before writing any file, and again under the lock, where it counts.
  await assertMayApply(account.id);

  const folder = `${CERTIFICATION_FOLDER}/${account.id}`;
  const keys: string[] = [];
  try {
    for (const file of [...accepted, ...(certificate ? [certificate] : [])]) keys.push(await storeFile(folder, file));
    const [avatarPhoto, idFront, idBack, certificateKey] = keys;
    const row = await withTransaction(async (tx) => {
      await repo.lockAccount(account.id, tx);
      await assertMayApply(account.id, tx);
      return repo.insertCertification(
        {
          accountId: account.id,
          realName: input.real_name,
          idNumberEncrypted: sealSecret(input.id_number),
          idNumberHint: input.id_number.slice(-4),
          avatarPhotoUrl: toPrivateFileUrl(avatarPhoto),
          idFrontUrl: toPrivateFileUrl(idFront),
          idBackUrl: toPrivateFileUrl(idBack),
          certificateUrl: certificateKey ? toPrivateFileUrl(certificateKey) : null,
          introduction: input.introduction,
        },
        tx,
      );
    });
    return toOwn(row);
  } catch (err) {
    // No row, so no files either.
    await deleteFiles(keys);
    throw err;
  }
}

export async function listCertificationsForReview(reviewer: TActor, { status }: TListCertificationsInput): Promise<TCertificationForReview[]> {
  assertRole(reviewer, "platform_admin");
  const rows = await repo.listCertifications({ status });
  return rows.map((row) => ({
    ...toOwn(row),
    account: row.account.account,
    nickname: row.account.nickname,
    introduction: row.introduction,
    avatar_photo_url: row.avatarPhotoUrl,
    id_front_url: row.idFrontUrl,
    id_back_url: row.idBackUrl,
    certificate_url: row.certificateUrl,
  }));
}

async function review(reviewer: TActor, id: string, decision: { status: "approved" | "rejected"; rejectReason: string | null }) {
  assertRole(reviewer, "platform_admin");
  const reviewedAt = new Date();
  return withTransaction(async (tx) => {
    const row = await repo.findCertificationById(id, tx);
    if (!row) throw new AppError("not_found");
    // Only a pending application can be decided, and only once.
    if (!(await repo.reviewPendingCertification(id, { ...decision, reviewedById: reviewer.id, reviewedAt }, tx))) throw new AppError("repeat_action");
    if (decision.status === "approved") await repo.grantRole(row.accountId, "enterprise_developer", tx);
    return toOwn({ ...row, status: decision.status, rejectReason: decision.rejectReason, reviewedAt });
  });
}

export async function approveCertification(reviewer: TActor, id: string) {
  return review(reviewer, id, { status: "approved", rejectReason: null });
}

export async function rejectCertification(reviewer: TActor, id: string, { reason }: TRejectCertificationInput) {
  assertRole(reviewer, "platform_admin");
  return review(reviewer, id, { status: "rejected", rejectReason: reason });
}

/**
 * A certification file for its applicant or a platform administrator. Anyone else, and any key
 * no application names, gets not_found: the key reveals nothing.
 */
export async function getCertificationFile(account: TActor, key: string) {
  const [folder, ownerId] = key.split("/");
  if (folder !== CERTIFICATION_FOLDER || !ownerId || !isValidKey(key)) throw new AppError("not_found");
  const row = await repo.findCertificationByFileUrl(ownerId, toPrivateFileUrl(key));
  if (hasRole(account, "platform_admin")) {
    if (!row) throw new AppError("not_found");
  } else {
    assertOwned(row, account);
  }
  const file = await getFileStore().get(key);
  if (!file) throw new AppError("not_found");
  return file;
}
