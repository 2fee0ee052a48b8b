// Whether a person's face shows in a filming video's sampled frames.
// The detector is face-api's SSD MobileNet v1 on TensorFlow.js's WebAssembly backend: its weights and
// the .wasm file ship inside the npm packages, so nothing is fetched at install or run time and no
// native build is needed. The smaller tiny face detector misses faces under ~60 px, which is how a
// standing figure's face looks in a 640 px frame; the SSD finds them down to ~25 px.
// The model loads once per worker process, on the first video that needs it.
import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import { logger } from "../../server/lib/logger";

type TFaceApi = typeof import("@vladmandic/face-api");

/** TensorFlow.js's backend switch, which face-api re-exports but leaves out of its own types. */
type TBackendSwitch = { setBackend(name: string): Promise<boolean>; ready(): Promise<void> };

/** A frame's pixels, 8-bit RGB row by row. */
export type TRgbFrame = { pixels: Uint8Array; width: number; height: number };

/** A loaded detector: does this frame show a face? */
export type TFaceDetector = { hasFace(frame: TRgbFrame): Promise<boolean> };

/** Frames are shrunk to this longest edge before detection; the SSD looks at 512 px anyway. */
const FRAME_MAX_EDGE = 640;
/** face-api's own default; higher loses the smallest faces of a figure filmed whole. */
const MIN_CONFIDENCE = 0.5;

async function loadFaceApiDetector(): Promise<TFaceDetector> {
  // Through require, so the CommonJS build and the @tensorflow/tfjs it requires are one instance in
  // every runner (vite would otherwise pick tfjs's ES build for an import, a second engine).
  const require = createRequire(import.meta.url);
  const faceapi = require("@vladmandic/face-api/dist/face-api.node-wasm.js") as TFaceApi;
  const tf = faceapi.tf as unknown as TBackendSwitch;
  if (!(await tf.setBackend("wasm"))) throw new Error("TensorFlow.js's WebAssembly backend did not start");
  await tf.ready();
  const modelDir = path.join(path.dirname(require.resolve("@vladmandic/face-api/package.json")), "model");
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir);
  const options = new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_CONFIDENCE, maxResults: 1 });
  return {
    async hasFace(frame) {
      const tensor = faceapi.tf.tensor3d(frame.pixels, [frame.height, frame.width, 3], "int32");
      try {
        return (await faceapi.detectAllFaces(tensor, options)).length > 0;
      } finally {
        tensor.dispose();
      }
    },
  };
}

/** A frame's RGB pixels, or null for bytes that are no readable picture (one bad frame must not sink the check). */
async function decodeFrame(bytes: Buffer): Promise<TRgbFrame | null> {
  try {
    const { data, info } = await sharp(bytes)
      .rotate()
      .resize(FRAME_MAX_EDGE, FRAME_MAX_EDGE, { fit: "inside", withoutEnlargement: true })
      .removeAlpha()
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) return null;
    return { pixels: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch {
    return null;
  }
}

/**
 * findFace on a given detector loader, loaded at most once: a loader that fails is reported once
 * and every later call answers null ("could not check") rather than trying again for each video.
 */
export function makeFaceFinder(loadDetector: () => Promise<TFaceDetector>) {
  let detector: Promise<TFaceDetector | null> | undefined;
  const ready = () =>
    (detector ??= loadDetector().catch((err: unknown) => {
      logger.warn({ err }, "face detector could not load: filming videos are measured without the face check");
      return null;
    }));

  return async (frames: Buffer[]): Promise<boolean | null> => {
    if (frames.length === 0) return false;
    const found = await ready();
    if (!found) return null;
    let readable = 0;
    for (const bytes of frames) {
      const frame = await decodeFrame(bytes);
      if (!frame) continue;
      readable++;
      try {
        if (await found.hasFace(frame)) return true;
      } catch (err) {
        logger.warn({ err }, "face detector failed on a frame");
        return null;
      }
    }
    if (readable === 0) logger.warn({ frames: frames.length }, "face check: none of the sampled frames is a readable picture");
    // No readable frame means nothing was looked at: "could not check", not "no face".
    return readable > 0 ? false : null;
  };
}

const findFaceWithFaceApi = makeFaceFinder(loadFaceApiDetector);

/** True when a face shows in any of the frames (JPEG or PNG bytes), false when none does, null when the detector could not run. */
export async function findFace(frames: Buffer[]): Promise<boolean | null> {
  return findFaceWithFaceApi(frames);
}
