// Pictures for the page from a stored picture: a web-sized WebP (at most 1600 px a side) and a
// thumbnail (at most 400 px), turned upright as the camera's EXIF orientation says, with every bit
// of metadata left out (a phone's photo carries where it was taken). Never enlarged.
import sharp from "sharp";
import { INFLATE_LIMITS } from "../../server/uploads/upload-limits";
import { MediaToolError } from "./run-tool";

// libvips' own thread pool: one per job, so a worker's media jobs share the cores with ffmpeg
// instead of each taking them all.
sharp.concurrency(1);

export const WEB_MAX_SIDE = 1600;
export const THUMB_MAX_SIDE = 400;

export type TImageDerivatives = { width: number; height: number; web: Buffer; thumb: Buffer };

/**
 * Only the picture formats the platform stores: sharp also reads SVG, PDF and more, whose renderers
 * have no business with a user's file here.
 */
const PICTURE_FORMATS = new Set(["jpeg", "png", "webp"]);

/** A sharp pipeline on untrusted bytes (the pixel ceiling the upload checks used, broken input refused), with its metadata. */
export async function openPicture(bytes: Buffer) {
  const picture = sharp(bytes, { limitInputPixels: INFLATE_LIMITS.maxPixels, failOn: "error" });
  const meta = await picture.metadata();
  if (!PICTURE_FORMATS.has(meta.format)) throw new MediaToolError(`reading the picture failed: ${meta.format} is not a kind of picture kept here`);
  return { picture, meta };
}

/** The picture's size as shown: EXIF orientations 5-8 turn it a quarter. */
function uprightSize(meta: { autoOrient?: { width: number; height: number } }) {
  const { width, height } = meta.autoOrient ?? {};
  return width && height ? { width, height } : null;
}

const fitWithin = (side: number) => ({ width: side, height: side, fit: "inside" as const, withoutEnlargement: true });

export async function makeImageDerivatives(bytes: Buffer): Promise<TImageDerivatives> {
  try {
    const { picture, meta } = await openPicture(bytes);
    const size = uprightSize(meta);
    if (!size) throw new MediaToolError("reading the picture failed: it has no size");
    // Sharp writes no metadata unless asked to: the EXIF orientation is applied, then dropped.
    const upright = picture.autoOrient();
    const [web, thumb] = await Promise.all([
      upright.clone().resize(fitWithin(WEB_MAX_SIDE)).webp({ quality: 82 }).toBuffer(),
      upright.clone().resize(fitWithin(THUMB_MAX_SIDE)).webp({ quality: 75 }).toBuffer(),
    ]);
    return { ...size, web, thumb };
  } catch (err) {
    if (err instanceof MediaToolError) throw err;
    throw new MediaToolError(`reading the picture failed: ${(err as Error).message}`, { cause: err });
  }
}
