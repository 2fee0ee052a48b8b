// Upload limits of SPEC 5, in one place: the server enforces them, the forms check them early.
// No server imports here: the browser uses this file too.
const MB = 1024 * 1024;

export type TImageLimits = { maxBytes: number; minSide: number; maxSide: number };

/** Pictures are at least 300 px and at most 5000 px on each side. */
export const IMAGE_SIDES = { minSide: 300, maxSide: 5000 } as const;

export const AVATAR_LIMITS: TImageLimits = { maxBytes: 5 * MB, ...IMAGE_SIDES };
export const CERTIFICATION_IMAGE_LIMITS: TImageLimits = { maxBytes: 10 * MB, ...IMAGE_SIDES };
export const CERTIFICATE_FILE_MAX_BYTES = 10 * MB;

export const IMAGE_ACCEPT = "image/jpeg,image/png,.jpg,.jpeg,.png";
export const DOCUMENT_ACCEPT = "application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png";
