// Made-up media for the tests and the media benchmark (bench/media.ts): ffmpeg's test pattern as a
// video, and a photograph-sized JPEG with detail in it. Made here because only workers/media runs
// the tools.
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
