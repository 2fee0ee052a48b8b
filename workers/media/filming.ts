// Measuring a filming video, for the shared rules to judge (server/digital/digital.schema.ts): its
// length, shown size, frame rate and sound; and from a few frames spread over it, the backdrop's
// colour and how much of it is chroma green, and whether a face shows. The backdrop is read from
// the frames' border, where a person filmed from the waist up leaves the screen uncovered.
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { DEFAULT_KEY, type TFilmingFacts } from "../../server/media/file-facts.schema";
import { fitWithin } from "./chroma-key";
import { findFace } from "./face-detect";
import { getFfmpegPaths } from "./ffmpeg-path";
import { playedLengthMs } from "./played-length";
import { probeMedia, readFfprobeJson, shownSize, type TProbe } from "./probe";
import { MediaToolError, lastWords, runTool, runToolOrFail } from "./run-tool";

const PROBE_TIMEOUT_MS = 60_000;
const SAMPLE_TIMEOUT_MS = 2 * 60_000;
export const SAMPLE_FRAMES = 5;
/** Sampled frames' long side: what the face detector looks at (a standing figure's face is some 30 px there). */
export const SAMPLE_SIDE = 640;
/** The border's colour is counted on frames this size: plenty for a backdrop, a quarter of the pixels. */
const BORDER_SIDE = 320;
/** How far (RGB distance) from the most common colour a pixel still counts as the backdrop's. */
const NEAR_TOP = 40;
/** The border read for the backdrop: this share of the frame's width and height on each side. */
export const BORDER_SHARE = 0.12;

/** "30000/1001" → 29.97; "0/0" or nonsense → null. */
export function readFrameRate(rate: string | undefined | null) {
  const m = /^(\d+(?:\.\d+)?)(?:\/(\d+(?:\.\d+)?))?$/.exec(rate?.trim() ?? "");
  if (!m) return null;
  const fps = Number(m[1]) / (m[2] === undefined ? 1 : Number(m[2]));
  return Number.isFinite(fps) && fps > 0 ? Math.round(fps * 100) / 100 : null;
}

/** The file's facts and its video's average frame rate (ffprobe's avg_frame_rate, or the "25 fps" ffmpeg's report prints). */
export async function probeWithFrameRate(file: string): Promise<{ probe: TProbe; fps: number | null }> {
  const { ffmpeg, ffprobe } = getFfmpegPaths();
  if (!ffprobe) {
    const probe = await probeMedia(file);
    const run = await runTool(ffmpeg, ["-hide_banner", "-nostdin", "-i", file], { timeoutMs: PROBE_TIMEOUT_MS });
    return { probe, fps: readFrameRate(/Video: .*?, (\d+(?:\.\d+)?) fps/.exec(run.stderr)?.[1]) };
  }
  const run = await runTool(ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file], { timeoutMs: PROBE_TIMEOUT_MS });
  if (run.code !== 0) throw new MediaToolError(`probing the file failed: ${lastWords(run.stderr) || `exit code ${run.code}`}`);
  const json = JSON.parse(run.stdout || "{}") as { streams?: Array<{ codec_type?: string; avg_frame_rate?: string; r_frame_rate?: string }> };
  const probe = readFfprobeJson(json as Parameters<typeof readFfprobeJson>[0]);
  if (!probe.video && !probe.audio) throw new MediaToolError("probing the file failed: it holds no video or audio stream");
  const stream = json.streams?.find((s) => s.codec_type === "video");
  return { probe, fps: readFrameRate(stream?.avg_frame_rate) ?? readFrameRate(stream?.r_frame_rate) };
}

/** Where the frames are taken: the middles of `count` equal parts of the clip (the start when its length is unknown). */
export function sampleSeconds(durationMs: number | null, count = SAMPLE_FRAMES) {
  if (!durationMs || durationMs <= 0) return [0];
  return Array.from({ length: count }, (_, i) => ((i + 0.5) * durationMs) / count / 1000);
}

/** Whether a colour is a chroma green: hue about 80-160 degrees, saturated and bright enough to key. */
export function isChromaGreen(r: number, g: number, b: number) {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max !== g || max < 64 || (max - min) / max < 0.3) return false;
  const hue = 120 + (60 * (b - r)) / (max - min);
  return hue >= 80 && hue <= 160;
}

const hex = (c: number) => Math.round(c).toString(16).padStart(2, "0");

type TFrame = { raw: Buffer; width: number; height: number };

/** Calls `visit` with each border pixel's offset in its frame's raw RGB. */
function forEachBorderPixel(frame: TFrame, visit: (raw: Buffer, at: number) => void) {
  const { raw, width, height } = frame;
  const [bx, by] = [Math.ceil(width * BORDER_SHARE), Math.ceil(height * BORDER_SHARE)];
  for (let y = 0; y < height; y++) {
    const wholeRow = y < by || y >= height - by;
    for (let x = 0; x < width; x++) if (wholeRow || x < bx || x >= width - bx) visit(raw, (y * width + x) * 3);
  }
}

/**
 * The backdrop in the frames' border (raw RGB): the share of its pixels that are chroma green, and
 * its dominant colour (#rrggbb: the mean of the pixels near the most common colour, so a screen's
 * noise and uneven light average out).
 */
export function measureBorder(frames: TFrame[]) {
  const bins = new Uint32Array(4096);
  let [count, green] = [0, 0];
  for (const frame of frames) {
    forEachBorderPixel(frame, (raw, at) => {
      bins[((raw[at] >> 4) << 8) | ((raw[at + 1] >> 4) << 4) | (raw[at + 2] >> 4)]++;
      count++;
      if (isChromaGreen(raw[at], raw[at + 1], raw[at + 2])) green++;
    });
  }
  if (count === 0) return { greenShare: 0, keyColor: DEFAULT_KEY.color };
  const top = bins.indexOf(Math.max(...bins));
  const centre = [((top >> 8) << 4) + 8, (((top >> 4) & 15) << 4) + 8, ((top & 15) << 4) + 8];
  const sum = [0, 0, 0, 0];
  for (const frame of frames) {
    forEachBorderPixel(frame, (raw, at) => {
      const [dr, dg, db] = [raw[at] - centre[0], raw[at + 1] - centre[1], raw[at + 2] - centre[2]];
      if (dr * dr + dg * dg + db * db > NEAR_TOP * NEAR_TOP) return;
      sum[0] += raw[at];
      sum[1] += raw[at + 1];
      sum[2] += raw[at + 2];
      sum[3]++;
    });
  }
  return {
    greenShare: Math.round((green / count) * 1000) / 1000,
    keyColor: `#${sum
      .slice(0, 3)
      .map((s) => hex(s / sum[3]))
      .join("")}`,
  };
}

/** The sampled frames as PNGs, taken in one ffmpeg run (each its own seek, so only a few frames are decoded). */
async function sampleFrames(input: string, dir: string, probe: TProbe) {
  const size = fitWithin(shownSize(probe.video!).width, shownSize(probe.video!).height, SAMPLE_SIDE);
  const seconds = sampleSeconds(probe.durationMs);
  const files = seconds.map((_, i) => path.join(dir, `sample-${i}.png`));
  const inputs = seconds.flatMap((s) => ["-ss", s.toFixed(3), "-i", input]);
  const outputs = files.flatMap((file, i) => [
    "-map",
    `${i}:v:0`,
    "-frames:v",
    "1",
    "-vf",
    `scale=${size.width}:${size.height}`,
    "-f",
    "image2",
    "-update",
    "1",
    file,
  ]);
  await runToolOrFail(getFfmpegPaths().ffmpeg, ["-hide_banner", "-nostdin", "-y", ...inputs, ...outputs], {
    timeoutMs: SAMPLE_TIMEOUT_MS,
    step: "sampling frames",
  });
  // A length the container overstates leaves nothing at the last seeks: the frames that came will do.
  const pngs = (await Promise.all(files.map((f) => fs.readFile(f).catch(() => null)))).filter((b): b is NonNullable<typeof b> => b !== null && b.length > 0);
  if (pngs.length === 0) throw new MediaToolError("sampling frames failed: ffmpeg wrote no picture");
  return pngs;
}

async function toBorderFrame(png: Buffer): Promise<TFrame> {
  const { data, info } = await sharp(png)
    .resize(BORDER_SIDE, BORDER_SIDE, { fit: "inside", withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { raw: data, width: info.width, height: info.height };
}

/** The filming video's facts; `dir` is a temporary folder for the sampled frames. */
export async function measureFilmingFile(input: string, dir: string): Promise<TFilmingFacts> {
  const { probe: stated, fps } = await probeWithFrameRate(input);
  // A video recorded in a browser states no length: its packets tell, and the frames are sampled over it.
  const probe = stated.durationMs !== null ? stated : { ...stated, durationMs: await playedLengthMs(input, stated.video ? "v" : "a") };
  const base = { durationMs: probe.durationMs, hasAudio: probe.audio !== null };
  if (!probe.video) return { ...base, width: null, height: null, fps: null, faceFound: null, greenShare: 0, keyColor: DEFAULT_KEY.color };
  const pngs = await sampleFrames(input, dir, probe);
  const border = measureBorder(await Promise.all(pngs.map(toBorderFrame)));
  return { ...base, ...shownSize(probe.video), fps, faceFound: await findFace(pngs), ...border };
}
