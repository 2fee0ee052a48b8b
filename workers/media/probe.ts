// What a video or audio file holds: its container, length, and first video and audio streams.
// Asked of ffprobe when there is one; the npm ffmpeg comes without it, and then the report
// `ffmpeg -i <file>` prints (no output named: it stops after reading the input) is read instead.
import { getFfmpegPaths } from "./ffmpeg-path";
import { MediaToolError, lastWords, runTool } from "./run-tool";

export type TVideoStream = { codec: string; width: number; height: number; pixFmt: string | null; rotation: number };
export type TAudioStream = { codec: string; sampleRate: number | null; channels: number | null };
export type TProbe = {
  /** ffmpeg's demuxer names, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm". */
  format: string;
  /** The ISO file's major brand ("isom", "mp42"; "qt" for QuickTime), "" for other containers. */
  brand: string;
  durationMs: number | null;
  video: TVideoStream | null;
  audio: TAudioStream | null;
};

const PROBE_TIMEOUT_MS = 60_000;

const toNumber = (v: unknown) => (v === undefined || v === null || v === "" || v === "N/A" || !Number.isFinite(Number(v)) ? null : Number(v));
const toMs = (seconds: number | null) => (seconds === null ? null : Math.round(seconds * 1000));

/** A quarter turn or none: what a phone's rotation flag means for the picture's shape. */
const normaliseRotation = (degrees: number | null) => (((Math.round((degrees ?? 0) / 90) * 90) % 360) + 360) % 360;

type TFfprobeStream = {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: Array<{ rotation?: number }>;
};
type TFfprobeJson = { streams?: TFfprobeStream[]; format?: { format_name?: string; duration?: string; tags?: Record<string, string> } };

export function readFfprobeJson(json: TFfprobeJson): TProbe {
  const streams = json.streams ?? [];
  const v = streams.find((s) => s.codec_type === "video" && s.width && s.height);
  const a = streams.find((s) => s.codec_type === "audio");
  const rotation = v?.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? toNumber(v?.tags?.rotate);
  const durations = streams.map((s) => toNumber(s.duration)).filter((d): d is number => d !== null);
  return {
    format: json.format?.format_name ?? "",
    brand: (json.format?.tags?.major_brand ?? "").trim(),
    durationMs: toMs(toNumber(json.format?.duration) ?? (durations.length ? Math.max(...durations) : null)),
    video: v ? { codec: v.codec_name ?? "", width: v.width!, height: v.height!, pixFmt: v.pix_fmt ?? null, rotation: normaliseRotation(rotation) } : null,
    audio: a ? { codec: a.codec_name ?? "", sampleRate: toNumber(a.sample_rate), channels: a.channels ?? null } : null,
  };
}

/** "yuv420p(tv, progressive), 320x240 [SAR 1:1]" → its parts at the top level (commas inside brackets stay). */
function splitTopLevel(text: string) {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth = Math.max(0, depth - 1);
    else if (c === "," && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

const CHANNEL_WORDS: Record<string, number> = { mono: 1, stereo: 2, "2.1": 3, quad: 4, "5.0": 5, "5.1": 6, "7.1": 8 };

/** The report `ffmpeg -i` prints on stderr, read for the same facts as ffprobe's. */
export function readFfmpegReport(stderr: string): TProbe | null {
  const input = /^Input #0, (.+?), from /m.exec(stderr);
  if (!input) return null;
  const duration = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  const videoLine = /Stream #0:\d+\S*: Video: (.+)$/m.exec(stderr)?.[1];
  const audioLine = /Stream #0:\d+\S*: Audio: (.+)$/m.exec(stderr)?.[1];
  let video: TVideoStream | null = null;
  if (videoLine) {
    const parts = splitTopLevel(videoLine);
    const size = parts.map((p) => /^(\d+)x(\d+)/.exec(p)).find(Boolean);
    const pixFmt = /^([a-z0-9_]+)(\(|$)/.exec(parts[1] ?? "")?.[1] ?? null;
    // Older builds print `rotate : 90` among the stream's tags, newer ones a display matrix.
    const rotate = /^\s+rotate\s+:\s+(-?\d+)/m.exec(stderr)?.[1] ?? /displaymatrix: rotation of (-?[\d.]+) degrees/.exec(stderr)?.[1];
    if (size) video = { codec: parts[0].split(" ")[0], width: Number(size[1]), height: Number(size[2]), pixFmt, rotation: normaliseRotation(toNumber(rotate)) };
  }
  let audio: TAudioStream | null = null;
  if (audioLine) {
    const parts = splitTopLevel(audioLine);
    const rate = parts.map((p) => /^(\d+) Hz$/.exec(p)).find(Boolean);
    const layout = parts.find((p) => CHANNEL_WORDS[p.replace(/\(.*\)$/, "")] !== undefined);
    audio = {
      codec: parts[0].split(" ")[0],
      sampleRate: rate ? Number(rate[1]) : null,
      channels: layout ? CHANNEL_WORDS[layout.replace(/\(.*\)$/, "")] : null,
    };
  }
  return {
    format: input[1],
    brand: /^\s+major_brand\s+:\s+(\S+)/m.exec(stderr)?.[1] ?? "",
    durationMs: duration ? Math.round((Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3])) * 1000) : null,
    video,
    audio,
  };
}

/** The file's facts, or a MediaToolError when no tool can read it as audio or video. */
export async function probeMedia(file: string): Promise<TProbe> {
  const { ffmpeg, ffprobe } = getFfmpegPaths();
  if (ffprobe) {
    const run = await runTool(ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file], { timeoutMs: PROBE_TIMEOUT_MS });
    if (run.code !== 0) throw new MediaToolError(`probing the file failed: ${lastWords(run.stderr) || `exit code ${run.code}`}`);
    const probe = readFfprobeJson(JSON.parse(run.stdout || "{}") as TFfprobeJson);
    if (!probe.video && !probe.audio) throw new MediaToolError("probing the file failed: it holds no video or audio stream");
    return probe;
  }
  const run = await runTool(ffmpeg, ["-hide_banner", "-nostdin", "-i", file], { timeoutMs: PROBE_TIMEOUT_MS });
  const probe = readFfmpegReport(run.stderr);
  if (!probe || (!probe.video && !probe.audio)) throw new MediaToolError(`probing the file failed: ${lastWords(run.stderr, 2) || "ffmpeg could not read it"}`);
  return probe;
}

/** The picture's shape as shown: a quarter-turned phone video is as tall as it was wide. */
export function shownSize(video: TVideoStream) {
  return video.rotation === 90 || video.rotation === 270 ? { width: video.height, height: video.width } : { width: video.width, height: video.height };
}
