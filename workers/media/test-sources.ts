// Made-up media for the tests and the media benchmarks (bench/media.ts, bench/composite.ts): ffmpeg's
// test pattern as a video, a photograph-sized JPEG with detail in it, filming videos (a figure before
// a green screen or a room's wall) and recording-like tones; and ways to look at what the tools made.
// Made here because only workers/media runs the tools.
import fs from "node:fs";
import sharp from "sharp";
import { getFfmpegPaths } from "./ffmpeg-path";
import { runToolOrFail } from "./run-tool";

type TVideoSource = {
  width: number;
  height: number;
  seconds: number;
  fps?: number;
  audio?: boolean;
  codec?: "h264" | "vp8" | "mpeg4";
  /** Moving grain over the pattern, as a camera's sensor adds: far harder to compress than the clean pattern. */
  grain?: boolean;
};

const VIDEO_CODEC_ARGS = {
  h264: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
  vp8: ["-c:v", "libvpx", "-deadline", "realtime", "-b:v", "1M"],
  mpeg4: ["-c:v", "mpeg4", "-q:v", "2"],
};

/** The test pattern (moving, with a counter) for `seconds`, with a tone when `audio`, in the output's container. */
export async function renderTestVideo(output: string, source: TVideoSource) {
  const { width, height, seconds, fps = 25, audio = false, codec = "h264", grain = false } = source;
  const pattern = `testsrc=size=${width}x${height}:rate=${fps}:duration=${seconds}${grain ? ",noise=alls=16:allf=t+u" : ""}`;
  const inputs = ["-f", "lavfi", "-i", pattern];
  if (audio) inputs.push("-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${seconds}`);
  const audioArgs = audio ? (output.endsWith(".webm") ? ["-c:a", "libopus"] : ["-c:a", "aac"]) : ["-an"];
  await runToolOrFail(getFfmpegPaths().ffmpeg, ["-hide_banner", "-nostdin", "-y", ...inputs, ...VIDEO_CODEC_ARGS[codec], ...audioArgs, "-shortest", output], {
    timeoutMs: 5 * 60_000,
    step: "making a test video",
  });
}

/** A JPEG of noise over gradients (as hard to encode as a photograph), optionally tagged with an EXIF orientation. */
export async function renderTestJpeg(width: number, height: number, opts: { orientation?: number } = {}) {
  const channels = 3;
  const raw = Buffer.alloc(width * height * channels);
  let seed = 12345;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      const at = (y * width + x) * channels;
      raw[at] = (x * 255) / width;
      raw[at + 1] = (y * 255) / height;
      raw[at + 2] = seed & 0xff;
    }
  }
  const image = sharp(raw, { raw: { width, height, channels } }).jpeg({ quality: 90 });
  return opts.orientation ? image.withMetadata({ orientation: opts.orientation }).toBuffer() : image.toBuffer();
}

type TFilmingSource = {
  width: number;
  height: number;
  seconds: number;
  fps?: number;
  /** A tone under the picture (AAC). */
  audio?: boolean;
  /** The backdrop: chroma green (a green screen) or a beige wall (a room). */
  backdrop?: "green" | "room";
  /** Moving grain over the whole picture, as a camera's sensor adds. */
  grain?: boolean;
};

/** The figure's colours: skin and a dark blue shirt, far from green so keying must leave them whole. */
export const TEST_FIGURE_SKIN = { r: 0xc0, g: 0x80, b: 0x60 };
const BACKDROPS = { green: "0x00ff00", room: "0xb8a890" };

/**
 * A filming video: a person-sized block (skin over a shirt) standing at the bottom centre and
 * swaying sideways, before a green screen or a room's wall: H.264 (and AAC) in an MP4, or a browser's WebM.
 */
export async function renderFilmingVideo(output: string, source: TFilmingSource) {
  const { width, height, seconds, fps = 25, audio = false, backdrop = "green", grain = false } = source;
  const [fw, fh] = [Math.round(width * 0.3), Math.round(height * 0.75)];
  const skin = `0x${[TEST_FIGURE_SKIN.r, TEST_FIGURE_SKIN.g, TEST_FIGURE_SKIN.b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
  const figure = `color=c=${skin}:s=${fw}x${fh}:r=${fps}:d=${seconds},drawbox=x=0:y=ih*0.4:w=iw:h=ih*0.6:color=0x203070:t=fill`;
  const graph = `[1:v]drawbox=x=iw*0.3:y=ih*0.12:w=iw*0.4:h=ih*0.06:color=0x402018:t=fill[p];[0:v][p]overlay=x='(W-w)/2+W*0.08*sin(t*2)':y=H-h:shortest=1${grain ? ",noise=alls=10:allf=t+u" : ""},format=yuv420p[v]`;
  const inputs = ["-f", "lavfi", "-i", `color=c=${BACKDROPS[backdrop]}:s=${width}x${height}:r=${fps}:d=${seconds}`, "-f", "lavfi", "-i", figure];
  if (audio) inputs.push("-f", "lavfi", "-i", `sine=frequency=220:sample_rate=48000:duration=${seconds}`);
  // A WebM is as a browser's MediaRecorder writes it: VP8 and Opus, no length in the header.
  const webm = output.endsWith(".webm");
  const maps = ["-map", "[v]", ...(audio ? ["-map", "2:a", "-c:a", webm ? "libopus" : "aac"] : [])];
  const codec = webm ? [...VIDEO_CODEC_ARGS.vp8, "-live", "1"] : VIDEO_CODEC_ARGS.h264;
  await runToolOrFail(getFfmpegPaths().ffmpeg, ["-hide_banner", "-nostdin", "-y", ...inputs, "-filter_complex", graph, ...maps, ...codec, output], {
    timeoutMs: 5 * 60_000,
    step: "making a test filming video",
  });
}

type TToneSource = {
  seconds: number;
  /** A 997 Hz sine on both channels, digital silence, or a square wave at full scale (clipped). */
  kind?: "sine" | "silence" | "square";
  /** The sine's peak level in dBFS (a stereo sine at -20 dBFS peak measures about -20 LUFS). */
  peakDb?: number;
};

const TONE_CODECS: Record<string, string[]> = {
  // As a browser's MediaRecorder writes it: no length in the header.
  ".webm": ["-c:a", "libopus", "-live", "1"],
  ".ogg": ["-c:a", "libvorbis"],
  ".mp3": ["-c:a", "libmp3lame"],
  ".m4a": ["-c:a", "aac"],
  ".aac": ["-c:a", "aac", "-f", "adts"],
  ".flac": ["-c:a", "flac"],
  ".wav": ["-c:a", "pcm_s16le"],
};

/** A recording-like tone in the output's format (by its extension: webm, ogg, mp3, m4a, aac, flac, wav). */
export async function renderTestTone(output: string, source: TToneSource) {
  const { seconds, kind = "sine", peakDb = -20 } = source;
  const amplitude = Math.pow(10, peakDb / 20).toFixed(6);
  const wave = { sine: `${amplitude}*sin(2*PI*997*t)`, silence: "0", square: "if(lt(mod(t*200\\,1)\\,0.5)\\,1\\,-1)" }[kind];
  const ext = output.slice(output.lastIndexOf("."));
  const codec = TONE_CODECS[ext] ?? TONE_CODECS[".wav"];
  await runToolOrFail(
    getFfmpegPaths().ffmpeg,
    ["-hide_banner", "-nostdin", "-y", "-f", "lavfi", "-i", `aevalsrc=${wave}|${wave}:s=48000:d=${seconds}`, ...codec, output],
    { timeoutMs: 2 * 60_000, step: "making a test tone" },
  );
}

/** Every `every`-th frame of a video, decoded to raw RGB (into `rawFile`, read back): what a viewer sees. */
export async function decodeRgbFrames(input: string, rawFile: string, every: number) {
  await runToolOrFail(
    getFfmpegPaths().ffmpeg,
    [
      "-hide_banner",
      "-nostdin",
      "-y",
      "-i",
      input,
      "-vf",
      `select='not(mod(n\\,${every}))'`,
      "-fps_mode",
      "passthrough",
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      rawFile,
    ],
    { timeoutMs: 2 * 60_000, step: "decoding frames" },
  );
  return fs.readFileSync(rawFile);
}

/** The share of pixels (raw RGB) that are plainly green-screen green: what keying must leave none of. */
export function strongGreenShare(raw: Buffer) {
  let green = 0;
  for (let i = 0; i < raw.length; i += 3) if (raw[i + 1] > 180 && raw[i] < 100 && raw[i + 2] < 100) green++;
  return raw.length ? green / (raw.length / 3) : 0;
}

/** The share of pixels (raw RGB) within `tolerance` of a colour in every channel. */
export function colourShare(raw: Buffer, colour: { r: number; g: number; b: number }, tolerance = 24) {
  let near = 0;
  for (let i = 0; i < raw.length; i += 3) {
    if (Math.abs(raw[i] - colour.r) <= tolerance && Math.abs(raw[i + 1] - colour.g) <= tolerance && Math.abs(raw[i + 2] - colour.b) <= tolerance) near++;
  }
  return raw.length ? near / (raw.length / 3) : 0;
}
