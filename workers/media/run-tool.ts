// Running ffmpeg and ffprobe: one program at a time per worker by default (MEDIA_FFMPEG_CONCURRENCY),
// since each already spreads over every core and two at once only make both slower and the
// machine's memory the limit. Arguments go as a list, never through a shell. A program that runs
// past its time is killed, and what it said last is kept for the error.
import { spawn } from "node:child_process";
import { getEnv } from "../../server/env";

/** A media file the tools could not read or make: the message says which step and what the tool said. */
export class MediaToolError extends Error {
  constructor(message: string, opts?: { cause?: unknown }) {
    super(message, opts);
    this.name = "MediaToolError";
  }
}

/** What a program said on stderr, kept within this many characters (its last words matter most). */
const STDERR_KEEP = 64 * 1024;

export function createLimiter(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, so `running` counts it throughout.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

let limiter: ReturnType<typeof createLimiter> | null = null;
const limited = <T>(task: () => Promise<T>) => (limiter ??= createLimiter(getEnv().MEDIA_FFMPEG_CONCURRENCY))(task);

export type TToolRun = { code: number | null; stdout: string; stderr: string };

/** Runs a program to its end (whatever its exit code) within the worker's limit. */
export function runTool(program: string, args: string[], opts: { timeoutMs: number }): Promise<TToolRun> {
  return limited(
    () =>
      new Promise<TToolRun>((resolve, reject) => {
        const child = spawn(program, args, { stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        let timedOut = false;
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
          if (stderr.length > STDERR_KEEP * 2) stderr = stderr.slice(-STDERR_KEEP);
        });
        const timer = setTimeout(() => {
          timedOut = true;
          child.kill("SIGKILL");
        }, opts.timeoutMs);
        child.on("error", (err) => {
          clearTimeout(timer);
          reject(new MediaToolError(`could not start ${program}: ${err.message}`, { cause: err }));
        });
        child.on("close", (code) => {
          clearTimeout(timer);
          if (timedOut) reject(new MediaToolError(`${program} ran past ${Math.round(opts.timeoutMs / 1000)} s and was stopped`));
          else resolve({ code, stdout, stderr: stderr.slice(-STDERR_KEEP) });
        });
      }),
  );
}

/** The last lines a tool printed, for an error message (ffmpeg ends with its reason). */
export function lastWords(stderr: string, lines = 4) {
  return stderr.trim().split("\n").slice(-lines).join(" | ").slice(0, 600);
}

/** Runs ffmpeg-like `program`, and fails with what it said unless it exited 0. */
export async function runToolOrFail(program: string, args: string[], opts: { timeoutMs: number; step: string }) {
  const result = await runTool(program, args, opts);
  if (result.code !== 0) throw new MediaToolError(`${opts.step} failed: ${lastWords(result.stderr) || `exit code ${result.code}`}`);
  return result;
}
