// An app's icon as every page shows it: 200x200 PNG, upright, the picture's middle cropped to a
// square (cover) rather than squeezed, no metadata.
import { openPicture } from "./images";
import { MediaToolError } from "./run-tool";

export const ICON_SIDE = 200;

export async function normaliseIconBytes(bytes: Buffer): Promise<Buffer> {
  try {
    const { picture } = await openPicture(bytes);
    return await picture.autoOrient().resize({ width: ICON_SIDE, height: ICON_SIDE, fit: "cover", position: "centre" }).png({ compressionLevel: 9 }).toBuffer();
  } catch (err) {
    if (err instanceof MediaToolError) throw err;
    throw new MediaToolError(`making the icon failed: ${(err as Error).message}`, { cause: err });
  }
}
