// Which ffmpeg and ffprobe the worker runs. FFMPEG_PATH when set; else Debian's /usr/bin/ffmpeg when
// present (5.1: current codecs and filters); else the npm package's static build (from 2018, and
// shipped without ffprobe). ffprobe likewise: FFPROBE_PATH, else /usr/bin/ffprobe; with none, probe.ts
// reads the report `ffmpeg -i` prints instead.
import fs from "node:fs";
import { createRequire } from "node:module";
import { getEnv } from "../../server/env";
import { logger } from "../../server/lib/logger";

export type TFfmpegPaths = { ffmpeg: string; ffprobe: string | null; source: "setting" | "system" | "npm" };

export const SYSTEM_FFMPEG = "/usr/bin/ffmpeg";
export const SYSTEM_FFPROBE = "/usr/bin/ffprobe";

function isExecutable(file: string) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The npm package's binary for this platform; it resolves its own platform package when loaded. */
function findNpmFfmpeg(): string | null {
  try {
    return (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;
  } catch {
    return null;
  }
}

/**
 * The rule above, on the given settings. A setting that names no runnable program stops the worker
 * with a sentence rather than failing every media job later.
 */
export function resolveFfmpegPaths(
  settings: { FFMPEG_PATH?: string; FFPROBE_PATH?: string },
  opts: { isExecutable?: (file: string) => boolean; findNpmFfmpeg?: () => string | null } = {},
): TFfmpegPaths {
  const canRun = opts.isExecutable ?? isExecutable;
  for (const name of ["FFMPEG_PATH", "FFPROBE_PATH"] as const) {
    const file = settings[name];
    if (file && !canRun(file)) throw new Error(`${name} is ${JSON.stringify(file)}, which is not a program this process can run`);
  }
  const ffprobe = settings.FFPROBE_PATH ?? (canRun(SYSTEM_FFPROBE) ? SYSTEM_FFPROBE : null);
  if (settings.FFMPEG_PATH) return { ffmpeg: settings.FFMPEG_PATH, ffprobe, source: "setting" };
  if (canRun(SYSTEM_FFMPEG)) return { ffmpeg: SYSTEM_FFMPEG, ffprobe, source: "system" };
  const npm = (opts.findNpmFfmpeg ?? findNpmFfmpeg)();
  if (!npm || !canRun(npm)) throw new Error("no ffmpeg: install Debian's (apt-get install ffmpeg), set FFMPEG_PATH, or reinstall @ffmpeg-installer/ffmpeg");
  return { ffmpeg: npm, ffprobe, source: "npm" };
}

let resolved: TFfmpegPaths | null = null;

/** The programs this process runs, decided once (and logged once) from its settings. */
export function getFfmpegPaths(): TFfmpegPaths {
  if (!resolved) {
    const env = getEnv();
    resolved = resolveFfmpegPaths({ FFMPEG_PATH: env.FFMPEG_PATH, FFPROBE_PATH: env.FFPROBE_PATH });
    logger.info(resolved, "media tools: ffmpeg and ffprobe");
  }
  return resolved;
}

/** Tests switch between programs; null decides again from the settings. */
export function setFfmpegPaths(next: TFfmpegPaths | null) {
  resolved = next;
}
