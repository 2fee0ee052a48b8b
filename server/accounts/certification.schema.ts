// Developer certification input, shared by the form and the server. Message keys are in
// public/locales/<lng>/errors.json, validation.*.
import { z } from "zod";

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK_CHARS = "10X98765432";

/**
 * An 18-character PRC resident ID (GB 11643-1999): 17 digits, a check character from the
 * weighted sum mod 11, and a real birth date (YYYYMMDD at positions 7-14) not in the future.
 */
export function isValidIdNumber(value: string, today = new Date()): boolean {
  const id = value.trim().toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  const sum = ID_WEIGHTS.reduce((acc, w, i) => acc + w * Number(id[i]), 0);
  if (ID_CHECK_CHARS[sum % 11] !== id[17]) return false;
  const year = Number(id.slice(6, 10));
  const month = Number(id.slice(10, 12));
  const day = Number(id.slice(12, 14));
  const birth = new Date(Date.UTC(year, month - 1, day));
  const real = birth.getUTCFullYear() === year && birth.getUTCMonth() === month - 1 && birth.getUTCDate() === day;
  return real && year >= 1900 && birth.getTime() <= today.getTime();
}

const REQUIRED = { error: "validation.required" };

export const ZIdNumber = z
  .string(REQUIRED)
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => isValidIdNumber(v), "validation.id_number");

export const ZRealName = z.string(REQUIRED).trim().min(2, "validation.real_name").max(30, "validation.real_name");

export const ZIntroduction = z.string(REQUIRED).trim().min(10, "validation.introduction").max(500, "validation.introduction");

export const ZSubmitCertificationInput = z.object({
  real_name: ZRealName,
  id_number: ZIdNumber,
  introduction: ZIntroduction,
});

export const ZRejectCertificationInput = z.object({
  reason: z.string(REQUIRED).trim().min(1, "validation.reject_reason").max(200, "validation.reject_reason"),
});

export const CERTIFICATION_STATUSES = ["pending", "approved", "rejected"] as const;

export const ZListCertificationsInput = z.object({ status: z.enum(CERTIFICATION_STATUSES).default("pending") });
export type TListCertificationsInput = z.infer<typeof ZListCertificationsInput>;
export type TRejectCertificationInput = z.infer<typeof ZRejectCertificationInput>;

/** The multipart file fields of an application. */
export const CERTIFICATION_IMAGE_FIELDS = ["avatar_photo", "id_front", "id_back"] as const;
export const CERTIFICATE_FIELD = "certificate";

export type TSubmitCertificationInput = z.infer<typeof ZSubmitCertificationInput>;
export type TCertificationStatus = (typeof CERTIFICATION_STATUSES)[number];

/** What the applicant sees of their own latest application: never the full ID number. */
export type TOwnCertification = {
  id: string;
  status: TCertificationStatus;
  reject_reason: string | null;
  real_name: string;
  id_number_hint: string;
  created_at: string;
  reviewed_at: string | null;
};

/** What a platform administrator reviews. */
export type TCertificationForReview = TOwnCertification & {
  account: string;
  nickname: string;
  introduction: string;
  avatar_photo_url: string;
  id_front_url: string;
  id_back_url: string;
  certificate_url: string | null;
};
