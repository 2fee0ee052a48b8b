// `npm run bench -- media`: what the worker's file work costs on this machine, in figures that do
// not move with its load as wall times do:
//  - CPU seconds (ffmpeg's user + system time) per second of output, encoding 10 s of ffmpeg's test
//    pattern (clean, and with moving grain) to H.264/AAC through the playable-copy path
//    (workers/media/video.ts) at 720p and 1080p, and 1080p scaled to the 1280 px copy the library makes;
//  - pictures per second for the derivative step (web size and thumbnail, sharp) of a 3000x2000 JPEG.
// ffmpeg's CPU time is read from /proc/self/stat: a child's time is added to its parent's
// (cutime, cstime) once the child has ended and been waited for.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getFfmpegPaths } from "../workers/media/ffmpeg-path";
import { makeImageDerivatives } from "../workers/media/images";
import { probeMedia } from "../workers/media/probe";
import { renderTestJpeg, renderTestVideo } from "../workers/media/test-sources";
import { transcodeToMp4 } from "../workers/media/video";

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux Node runs on
const SECONDS = 10;
const PICTURES = 20;

/** CPU seconds used by this process's ended children, or null where there is no /proc. */
function endedChildrenCpuSeconds(): number | null {
  if (!fs.existsSync("/proc/self/stat")) return null;
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

type TSource = { width: number; height: number; grain: boolean };

async function measureTranscode(dir: string, label: string, source: TSource, maxWidth: number) {
  // MPEG-4 part 2 at a high quality: cheap to decode, so the figure is mostly the H.264 encode.
  const name = `${source.width}x${source.height}${source.grain ? "-grain" : ""}`;
  const input = path.join(dir, `source-${name}.mkv`);
  if (!fs.existsSync(input)) await renderTestVideo(input, { ...source, seconds: SECONDS, audio: true, codec: "mpeg4" });
  const probe = await probeMedia(input);
  const output = path.join(dir, `out-${name}-${maxWidth}.mp4`);
  const cpuBefore = endedChildrenCpuSeconds();
  const started = performance.now();
  await transcodeToMp4(input, output, probe, { maxWidth });
  const wall = (performance.now() - started) / 1000;
  const cpu = cpuBefore === null ? null : endedChildrenCpuSeconds()! - cpuBefore;
  const out = await probeMedia(output);
  const outSeconds = (out.durationMs ?? SECONDS * 1000) / 1000;
  const perSecond = cpu === null ? "n/a" : (cpu / outSeconds).toFixed(2);
  const size = `${out.video?.width}x${out.video?.height}`;
  console.log(
    `${label.padEnd(36)} ${size.padStart(9)}  ${perSecond.padStart(5)} CPU-s per output second  (${cpu?.toFixed(1)} CPU-s, ${wall.toFixed(1)} s wall for ${outSeconds.toFixed(1)} s)`,
  );
}

async function measurePictures() {
  const jpeg = await renderTestJpeg(3000, 2000);
  await makeImageDerivatives(jpeg); // warm up
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < PICTURES; i++) await makeImageDerivatives(jpeg);
  const wall = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  console.log(
    `${"3000x2000 JPEG → web + thumb".padEnd(36)} ${(PICTURES / wall).toFixed(1).padStart(9)} pictures/s  (${((cpuSeconds / PICTURES) * 1000).toFixed(0)} ms CPU each, ${(jpeg.length / 1024 / 1024).toFixed(1)} MB in)`,
  );
}

export async function runMediaBench() {
  const cpus = os.cpus();
  const { ffmpeg, source } = getFfmpegPaths();
  console.log(`\nmedia work (workers/media), ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? "unknown"}), ffmpeg ${ffmpeg} (${source})`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-media-bench-"));
  try {
    // The clean pattern is kind to the encoder; with grain it is as hard as a phone's footage, or harder.
    for (const grain of [false, true]) {
      const kind = grain ? "pattern + grain" : "test pattern";
      await measureTranscode(dir, `720p ${kind}`, { width: 1280, height: 720, grain }, 1280);
      await measureTranscode(dir, `1080p ${kind}`, { width: 1920, height: 1080, grain }, 1920);
      await measureTranscode(dir, `1080p ${kind} → 1280 px`, { width: 1920, height: 1080, grain }, 1280);
    }
    await measurePictures();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
