// Running the media programs: never more at once than the limit, a program past its time killed,
// one that cannot start or that fails named in the error.
import { describe, expect, it } from "vitest";
import { createLimiter, MediaToolError, runTool, runToolOrFail } from "./run-tool";

async function peakConcurrency(limit: number, tasks: number) {
  const run = createLimiter(limit);
  let running = 0;
  let peak = 0;
  const done = await Promise.all(
    Array.from({ length: tasks }, (_, i) =>
      run(async () => {
        peak = Math.max(peak, ++running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return i;
      }),
    ),
  );
  return { peak, done };
}

describe("the limit on programs at once", () => {
  it("runs one at a time at 1 and two at 2, every task to its end in order", async () => {
    expect(await peakConcurrency(1, 6)).toEqual({ peak: 1, done: [0, 1, 2, 3, 4, 5] });
    expect((await peakConcurrency(2, 6)).peak).toBe(2);
  });

  it("frees the place of a task that failed", async () => {
    const run = createLimiter(1);
    await expect(run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await run(async () => "next")).toBe("next");
  });
});

describe("running a program", () => {
  it("answers its exit code and output", async () => {
    expect(await runTool("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], { timeoutMs: 10_000 })).toEqual({ code: 3, stdout: "out\n", stderr: "err\n" });
  });

  it("kills a program past its time", async () => {
    const started = Date.now();
    await expect(runTool("/bin/sleep", ["5"], { timeoutMs: 200 })).rejects.toThrow(MediaToolError);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("names a program that cannot start, and a failed step with the program's last words", async () => {
    await expect(runTool("/nowhere/ffmpeg", [], { timeoutMs: 1000 })).rejects.toThrow(/^could not start \/nowhere\/ffmpeg: /);
    await expect(
      runToolOrFail("/bin/sh", ["-c", "echo 'Invalid data found when processing input' >&2; exit 1"], { timeoutMs: 1000, step: "reading" }),
    ).rejects.toThrow("reading failed: Invalid data found when processing input");
  });
});
