// Upload limits, in one place: the server enforces them, the forms check them early.
// No server imports here: the browser uses this file too.
export const MB = 1024 * 1024;

export type TImageLimits = { maxBytes: number; minSide: number; maxSide: number };
export type TFileLimits = { maxBytes: number };

/** Pictures are JPG/JPEG/PNG, at least 300 px and at most 5000 px on each side. */
export const IMAGE_SIDES = { minSide: 300, maxSide: 5000 } as const;

/** Pictures are 5, 10 or 20 MB depending on what they are for. */
export const IMAGE_MAX_BYTES = { small: 5 * MB, medium: 10 * MB, large: 20 * MB } as const;

export const AVATAR_LIMITS: TImageLimits = { maxBytes: IMAGE_MAX_BYTES.small, ...IMAGE_SIDES };
/** An app's icon is shown at 200x200 (the worker crops and scales it to that), so 200 px a side will do. */
export const ICON_LIMITS: TImageLimits = { maxBytes: IMAGE_MAX_BYTES.small, minSide: 200, maxSide: IMAGE_SIDES.maxSide };
export const CERTIFICATION_IMAGE_LIMITS: TImageLimits = { maxBytes: IMAGE_MAX_BYTES.medium, ...IMAGE_SIDES };
export const CERTIFICATE_FILE_MAX_BYTES = 10 * MB;

/** Videos: 100 MB, a greeting video 20 MB. */
export const VIDEO_LIMITS: TFileLimits = { maxBytes: 100 * MB };
export const GREETING_VIDEO_LIMITS: TFileLimits = { maxBytes: 20 * MB };

/** Text files (txt, docx, pdf; never empty): 50 MB for training files, 10 MB elsewhere. */
export const TRAINING_FILE_LIMITS: TFileLimits = { maxBytes: 50 * MB };
export const TEXT_FILE_LIMITS: TFileLimits = { maxBytes: 10 * MB };

/** How many files one form may carry: 3 pictures, 5 files, or 10 files depending on the form. */
export const PER_FORM = { images: 3, files: 5, manyFiles: 10 } as const;

/** The multimedia library: pictures (the large limit) and videos, 100 uploads per account per day. */
export const MEDIA_IMAGE_LIMITS: TImageLimits = { maxBytes: IMAGE_MAX_BYTES.large, ...IMAGE_SIDES };
export const MEDIA_VIDEO_LIMITS: TFileLimits = VIDEO_LIMITS;
export const MEDIA_UPLOADS_PER_DAY = 100;

/**
 * What a compressed upload may unpack to (ZIP members of docx/xlsx, a PNG's pixel data, a PDF's
 * streams), checked while it is read: at most `maxBytes` in all, and past the first `ratioGraceBytes`
 * at most `maxRatio` times the bytes it was packed in (ordinary documents stay far below; a bomb is
 * thousands). A ZIP holds at most `maxEntries` members, and a picture at most `maxPixels`.
 */
export const INFLATE_LIMITS = { maxBytes: 128 * MB, maxRatio: 200, ratioGraceBytes: 4 * MB, maxEntries: 10_000, maxPixels: 64_000_000 } as const;

/** A file name as sent by the browser: a plain name (no folders, no control characters) of at most this many characters. */
export const FILE_NAME_MAX_CHARS = 255;

export const IMAGE_ACCEPT = "image/jpeg,image/png,.jpg,.jpeg,.png";
export const VIDEO_ACCEPT = "video/mp4,video/quicktime,video/webm,.mp4,.mov,.webm";
export const MEDIA_ACCEPT = `${IMAGE_ACCEPT},${VIDEO_ACCEPT}`;
export const TEXT_FILE_ACCEPT = ".txt,.docx,.pdf,text/plain,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document";
export const DOCUMENT_ACCEPT = "application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png";

/**
 * The browser's early check of a chosen file: its size only (the server decides the type from the
 * content). Answers the errors-namespace key to show, or null when the file may be sent.
 */
export function checkFileSize(file: { size: number }, limits: TFileLimits): "file_empty_or_prohibited" | "file_too_large" | null {
  if (file.size === 0) return "file_empty_or_prohibited";
  return file.size > limits.maxBytes ? "file_too_large" : null;
}

/** Megabytes for messages ("20 MB"), from a byte limit. */
export const toMegabytes = (bytes: number) => Math.round(bytes / MB);
