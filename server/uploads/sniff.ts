// What a file is, decided by its first bytes (DESIGN 9): a renamed executable called photo.png is
// still an executable. The name and the browser's declared type are never trusted.
import { imageSize } from "image-size";

export const FILE_TYPES = {
  jpeg: { mime: "image/jpeg", ext: "jpg", magic: [0xff, 0xd8, 0xff] },
  png: { mime: "image/png", ext: "png", magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  pdf: { mime: "application/pdf", ext: "pdf", magic: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // "%PDF-"
} as const;

export type TFileKind = keyof typeof FILE_TYPES;

export function sniffType(bytes: Uint8Array): TFileKind | null {
  for (const kind of Object.keys(FILE_TYPES) as TFileKind[]) {
    const { magic } = FILE_TYPES[kind];
    if (bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b)) return kind;
  }
  return null;
}

/** Width and height in pixels, or null when the picture cannot be read. */
export function readImageSize(bytes: Uint8Array): { width: number; height: number } | null {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}
