// `npm run bench -- composite`: what a digital human's video costs the worker, in CPU seconds (ffmpeg's
// user + system time, from /proc) per second of output, a figure that does not move with the
// machine's load as wall times do. Made untimed first: a 10 s 1080p green-screen clip with camera
// grain and sound, a 1920x1080 background picture and a looping background video, and the speech.
// Timed: the figure's preparation (its 1280 px loop and keyed still), then composites of the speech
// through the worker's file work (workers/media/composite.ts) at 720p and 1080p, on the file store.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { resetEnvCache } from "../server/env";
import { dropSingleton } from "../server/lib/singleton";
import { DEFAULT_KEY } from "../server/media/file-facts.schema";
import type { TCompositeSpec } from "../server/media/file-work";
import { getFileStore } from "../server/uploads/file-store";
import { getFfmpegPaths } from "../workers/media/ffmpeg-path";
import { createFileWork } from "../workers/media/index";
import { renderFilmingVideo, renderTestJpeg, renderTestTone, renderTestVideo } from "../workers/media/test-sources";

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux Node runs on
const SPEECH_SECONDS = Number(process.env.BENCH_COMPOSITE_SECONDS ?? 60);
/** What a worker of two CPUs should manage: a minute of 720p in a minute, of 1080p in two. */
const GOALS: Record<number, number> = { 720: 1.0, 1080: 2.0 };

/** CPU seconds used by this process's ended children (ffmpeg, ffprobe), or null where there is no /proc. */
function endedChildrenCpuSeconds(): number | null {
  if (!fs.existsSync("/proc/self/stat")) return null;
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

async function timed<T>(work: () => Promise<T>) {
  const cpuBefore = endedChildrenCpuSeconds();
  const started = performance.now();
  const result = await work();
  const cpu = cpuBefore === null ? null : endedChildrenCpuSeconds()! - cpuBefore;
  return { result, cpu, wall: (performance.now() - started) / 1000 };
}

async function putFile(key: string, file: string, contentType: string) {
  await getFileStore().put(key, fs.readFileSync(file), contentType);
  return key;
}

export async function runCompositeBench() {
  const cpus = os.cpus();
  const { ffmpeg, source } = getFfmpegPaths();
  console.log(`\ndigital-human composite (workers/media), ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? "unknown"}), ffmpeg ${ffmpeg} (${source})`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-composite-bench-"));
  const dataDirBefore = process.env.DATA_DIR;
  process.env.DATA_DIR = dir;
  resetEnvCache();
  dropSingleton("file-store");
  try {
    const work = createFileWork();
    const local = (name: string) => path.join(dir, name);
    await renderFilmingVideo(local("filming.mp4"), { width: 1920, height: 1080, seconds: 10, audio: true, grain: true });
    await renderTestTone(local("speech.mp3"), { seconds: SPEECH_SECONDS });
    await renderTestVideo(local("backdrop.mp4"), { width: 1280, height: 720, seconds: 10, grain: true });
    fs.writeFileSync(local("backdrop.jpg"), await renderTestJpeg(1920, 1080));
    const filming = await putFile("media/bench/filming.mp4", local("filming.mp4"), "video/mp4");
    const speech = await putFile("media/bench/speech.mp3", local("speech.mp3"), "audio/mpeg");
    const picture = await putFile("media/bench/backdrop.jpg", local("backdrop.jpg"), "image/jpeg");
    const video = await putFile("media/bench/backdrop.mp4", local("backdrop.mp4"), "video/mp4");

    const prepared = await timed(() => work.prepareFigure(filming, DEFAULT_KEY));
    const figure = prepared.result;
    const perClipSecond = prepared.cpu === null ? "  n/a" : (prepared.cpu / (figure.durationMs / 1000)).toFixed(2).padStart(5);
    console.log(
      `${"prepare figure: 10 s 1080p → loop".padEnd(44)} ${`${figure.width}x${figure.height}`.padStart(9)}  ${perClipSecond} CPU-s per clip second  (${prepared.cpu?.toFixed(1)} CPU-s, ${prepared.wall.toFixed(1)} s wall)`,
    );

    const rows: Array<{ label: string; spec: Omit<TCompositeSpec, "outputKey" | "figure" | "audioKey"> }> = [
      {
        label: "720p, picture",
        spec: { orientation: "horizontal", height: 720, background: { kind: "image", key: picture }, placement: { x: 0.5, y: 0.55, scale: 0.9 } },
      },
      {
        label: "720p upright, looping video",
        spec: { orientation: "vertical", height: 720, background: { kind: "video", key: video }, placement: { x: 0.5, y: 0.6, scale: 0.8 } },
      },
      {
        label: "1080p, picture",
        spec: { orientation: "horizontal", height: 1080, background: { kind: "image", key: picture }, placement: { x: 0.5, y: 0.55, scale: 0.9 } },
      },
    ];
    for (const [i, row] of rows.entries()) {
      const spec: TCompositeSpec = { ...row.spec, outputKey: `media/bench/composite-${i}.mp4`, figure: { key: figure.loop, ...DEFAULT_KEY }, audioKey: speech };
      const { result, cpu, wall } = await timed(() => work.composite(spec));
      const seconds = result.durationMs / 1000;
      const perSecond = cpu === null ? null : cpu / seconds;
      const goal = GOALS[row.spec.height];
      const verdict = perSecond === null ? "" : perSecond <= goal ? `within the goal of ${goal.toFixed(1)}` : `OVER the goal of ${goal.toFixed(1)}`;
      console.log(
        `${`composite ${seconds.toFixed(0)} s: ${row.label}`.padEnd(44)} ${`${result.width}x${result.height}`.padStart(9)}  ${perSecond?.toFixed(2).padStart(5) ?? "  n/a"} CPU-s per output second  (${cpu?.toFixed(1)} CPU-s, ${wall.toFixed(1)} s wall; ${verdict})`,
      );
    }
  } finally {
    dropSingleton("file-store");
    if (dataDirBefore === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = dataDirBefore;
    resetEnvCache();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
