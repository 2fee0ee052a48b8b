// A digital human's video: the figure's loop keyed over a background, under the speech, as an
// H.264/AAC MP4 at 25 fps. The figure is scaled to its place first and keyed after (colorkey costs
// per pixel: keying the scaled figure measured a quarter of keying the source and scaling after), a
// background picture is decoded and fitted once and repeated, and every input is brought to 25 fps
// before anything else is done to its frames.
import sharp from "sharp";
import type { TCompositeSpec } from "../../server/media/file-work";
import { colorkeyFilter, ffmpegColor } from "./chroma-key";
import { getFfmpegPaths } from "./ffmpeg-path";
import { playedLengthMs } from "./played-length";
import { probeMedia, shownSize } from "./probe";
import { MediaToolError, runToolOrFail } from "./run-tool";

export const COMPOSITE_FPS = 25;
/** ffmpeg's pace is at worst a few times slower than real time on a small worker; past that something is stuck. */
const timeoutMsFor = (seconds: number | null) => (seconds === null ? 60 * 60_000 : 2 * 60_000 + seconds * 8_000);

type TSize = { width: number; height: number };

/** The local copies of a composite's inputs; `background.file` of a picture is already fitted to the canvas (fitPicture). */
export type TCompositeInputs = {
  background: { kind: "picture" | "video"; file: string } | { kind: "color"; color: string };
  figure: string;
  audio: string | null;
};
/** What was probed of the inputs: the figure clip's shown size, and the output's length (null: until the audio ends). */
export type TCompositeFacts = { figureSize: TSize; seconds: number | null };

/** The output's size: the short side is `height`, the long side 16:9 of it. */
export function canvasSize(orientation: TCompositeSpec["orientation"], height: TCompositeSpec["height"]): TSize {
  const long = Math.round((height * 16) / 9);
  return orientation === "horizontal" ? { width: long, height } : { width: height, height: long };
}

/** The figure's height on the canvas: `scale` of the canvas height, even (H.264's 4:2:0), at least 2 px. */
export const figureHeight = (scale: number, canvasHeight: number) => Math.max(2, Math.round((scale * canvasHeight) / 2) * 2);

const evenFloor = (n: number) => Math.floor(n / 2) * 2;
const evenCeil = (n: number) => Math.ceil(n / 2) * 2;

/**
 * The part of the figure's clip that lands on the canvas (`crop`, in the clip's pixels, even), the
 * size it is scaled to, and where its top left corner goes. A figure hanging off the canvas is cut
 * before it is scaled and keyed, so no work is spent on what no one sees (a landscape clip on an
 * upright canvas shows less than half its width).
 */
export function figureWindow(canvas: TSize, placement: TCompositeSpec["placement"], clip: TSize) {
  const height = figureHeight(placement.scale, canvas.height);
  const factor = height / clip.height;
  const width = Math.round(clip.width * factor);
  const left = Math.round(placement.x * canvas.width - width / 2);
  const top = Math.round(placement.y * canvas.height - height / 2);
  // Whole clip pixels from the first that shows to the last (even: the clip is 4:2:0).
  const x = Math.min(clip.width - 2, evenFloor(Math.max(0, -left) / factor));
  const y = Math.min(clip.height - 2, evenFloor(Math.max(0, -top) / factor));
  const right = Math.min(clip.width, Math.ceil((canvas.width - left) / factor));
  const bottom = Math.min(clip.height, Math.ceil((canvas.height - top) / factor));
  const crop = { x, y, width: Math.min(clip.width - x, evenCeil(right - x)), height: Math.min(clip.height - y, evenCeil(bottom - y)) };
  const size = { width: Math.max(2, Math.round(crop.width * factor)), height: Math.max(2, Math.round(crop.height * factor)) };
  return {
    crop,
    size,
    at: { x: left + Math.round(crop.x * factor), y: top + Math.round(crop.y * factor) },
    whole: crop.width === clip.width && crop.height === clip.height,
  };
}

/** A picture (any orientation flag, any alpha) fitted to cover the canvas and cropped to it, as a PNG for ffmpeg. */
export function fitPicture(bytes: Buffer, canvas: TSize) {
  return sharp(bytes).rotate().resize(canvas.width, canvas.height, { fit: "cover" }).flatten({ background: "#000000" }).png({ compressionLevel: 1 }).toBuffer();
}

function backgroundPart(background: TCompositeInputs["background"], canvas: TSize) {
  const { width: w, height: h } = canvas;
  if (background.kind === "color") {
    return { input: ["-f", "lavfi", "-i", `color=c=${ffmpegColor(background.color)}:s=${w}x${h}:r=${COMPOSITE_FPS}`], filter: "format=yuv420p" };
  }
  if (background.kind === "picture") {
    // One frame decoded, repeated by the loop filter: re-reading the image every frame costs as much as the keying.
    return { input: ["-i", background.file], filter: `scale=${w}:${h},setsar=1,format=yuv420p,loop=loop=-1:size=1:start=0,setpts=N/${COMPOSITE_FPS}/TB` };
  }
  const cover = `scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},setsar=1,format=yuv420p`;
  return { input: ["-stream_loop", "-1", "-i", background.file], filter: `fps=${COMPOSITE_FPS},${cover}` };
}

/** ffmpeg's arguments for the composite. */
export function compositeArgs(inputs: TCompositeInputs, spec: TCompositeSpec, output: string, facts: TCompositeFacts) {
  const canvas = canvasSize(spec.orientation, spec.height);
  const background = backgroundPart(inputs.background, canvas);
  const loops = inputs.audio !== null;
  const figure = [...(loops ? ["-stream_loop", "-1"] : []), "-i", inputs.figure];
  const audio = inputs.audio !== null ? ["-i", inputs.audio] : [];
  const key = colorkeyFilter({ color: spec.figure.color, similarity: spec.figure.similarity, blend: spec.figure.blend });
  const win = figureWindow(canvas, spec.placement, facts.figureSize);
  const crop = win.whole ? "" : `crop=${win.crop.width}:${win.crop.height}:${win.crop.x}:${win.crop.y},`;
  const graph = [
    `[0:v]${background.filter}[bg]`,
    `[1:v]fps=${COMPOSITE_FPS},${crop}scale=${win.size.width}:${win.size.height},setsar=1,format=rgba,${key}[fg]`,
    // With no speech, the clip's end ends the video.
    `[bg][fg]overlay=x=${win.at.x}:y=${win.at.y}:format=yuv420:eof_action=endall,format=yuv420p[v]`,
  ].join(";");
  const sound = loops ? ["-map", "2:a:0", "-shortest"] : ["-map", "1:a:0?"];
  const length = facts.seconds === null ? [] : ["-t", facts.seconds.toFixed(3)];
  return [
    ...["-hide_banner", "-nostdin", "-y", ...background.input, ...figure, ...audio, "-filter_complex", graph, "-map", "[v]", ...sound, ...length],
    ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p", "-r", String(COMPOSITE_FPS)],
    ...["-c:a", "aac", "-b:a", "128k", "-ac", "2", "-movflags", "+faststart", "-f", "mp4", output],
  ];
}

/** Renders the composite of the local `inputs` to `output`; its length is the audio's, or the figure clip's when there is none. */
export async function renderComposite(inputs: TCompositeInputs, spec: TCompositeSpec, output: string) {
  const clip = await probeMedia(inputs.figure);
  if (!clip.video) throw new MediaToolError("compositing failed: the figure's clip has no video stream");
  let durationMs = clip.durationMs;
  if (inputs.audio !== null) {
    const audio = await probeMedia(inputs.audio);
    if (!audio.audio) throw new MediaToolError("compositing failed: the speech file has no sound");
    durationMs = audio.durationMs ?? (await playedLengthMs(inputs.audio, "a"));
  }
  const seconds = durationMs === null ? null : durationMs / 1000;
  const args = compositeArgs(inputs, spec, output, { figureSize: shownSize(clip.video), seconds });
  await runToolOrFail(getFfmpegPaths().ffmpeg, args, { timeoutMs: timeoutMsFor(seconds), step: "compositing" });
  const made = await probeMedia(output).catch(() => null);
  if (!made?.video || made.durationMs === null) throw new MediaToolError("compositing failed: ffmpeg wrote no video");
  return { durationMs: made.durationMs, width: made.video.width, height: made.video.height };
}
