// The digital humans' file work on the file store: measuring filming videos and voice recordings,
// a figure's loop and keyed still, and the composite. Each reads its files
// into a temporary folder of its own and writes what it made beside the original (or at the keys
// its caller names: a composite's output, a bought figure's own loop and still), all or none.
import fsp from "node:fs/promises";
import path from "node:path";
import type { TKeySettings } from "../../server/media/file-facts.schema";
import type { TCompositeSpec, TCompositeWork, TExcerptSpec, TFigureWork } from "../../server/media/file-work";
import { derivedFileKey } from "../../server/uploads/stored-file";
import { canvasSize, fitPicture, renderComposite, type TCompositeInputs } from "./composite";
import { cutExcerpt, makeFigureFiles } from "./figure-loop";
import { measureFilmingFile, probeWithFrameRate } from "./filming";
import { MediaToolError } from "./run-tool";
import { copyStored, putAll, readPicture, withLocalCopy, withTempDir } from "./store-io";
import { measureVoiceFile } from "./voice-measure";

export function measureFilming(key: string) {
  return withLocalCopy(key, measureFilmingFile);
}

export function prepareFigure(key: string, settings: TKeySettings, into?: { loop: string; poster: string }): Promise<TFigureWork> {
  return withLocalCopy(key, async (input, dir) => {
    const { probe, fps } = await probeWithFrameRate(input);
    const made = await makeFigureFiles(input, dir, probe, fps, settings);
    const loop = into?.loop ?? derivedFileKey(key, "loop", "mp4");
    const poster = into?.poster ?? derivedFileKey(key, "keyed", "png");
    await putAll([
      { key: loop, bytes: await fsp.readFile(made.loopFile), contentType: "video/mp4" },
      { key: poster, bytes: await fsp.readFile(made.stillFile), contentType: "image/png" },
    ]);
    return { loop, poster, width: made.width, height: made.height, durationMs: made.durationMs };
  });
}

/** A short excerpt of a clip (a figure's loop cut to a lip-sync provider's length), at the key its caller names. */
export function excerptClip(key: string, cut: TExcerptSpec): Promise<{ key: string; durationMs: number }> {
  return withLocalCopy(key, async (input, dir) => {
    const output = path.join(dir, "excerpt.mp4");
    const durationMs = await cutExcerpt(input, output, cut.startMs, cut.durationMs);
    await putAll([{ key: cut.outputKey, bytes: await fsp.readFile(output), contentType: "video/mp4" }]);
    return { key: cut.outputKey, durationMs };
  });
}

export function measureVoice(key: string) {
  return withLocalCopy(key, (input) => measureVoiceFile(input));
}

async function copyBackground(spec: TCompositeSpec, dir: string): Promise<TCompositeInputs["background"]> {
  const background = spec.background;
  if (background.kind === "color") return background;
  if (background.kind === "video") return { kind: "video", file: await copyStored(background.key, dir, "background") };
  const file = path.join(dir, "background.png");
  const fitted = await fitPicture(await readPicture(background.key), canvasSize(spec.orientation, spec.height)).catch((err: unknown) => {
    throw new MediaToolError(`compositing failed: the background picture could not be read (${(err as Error).message})`, { cause: err });
  });
  await fsp.writeFile(file, fitted);
  return { kind: "picture", file };
}

export function composite(spec: TCompositeSpec): Promise<TCompositeWork> {
  return withTempDir(async (dir) => {
    const inputs: TCompositeInputs = {
      background: await copyBackground(spec, dir),
      figure: await copyStored(spec.figure.key, dir, "figure"),
      audio: spec.audioKey === null ? null : await copyStored(spec.audioKey, dir, "audio"),
    };
    const output = path.join(dir, "composite.mp4");
    const made = await renderComposite(inputs, spec, output);
    await putAll([{ key: spec.outputKey, bytes: await fsp.readFile(output), contentType: "video/mp4" }]);
    return { key: spec.outputKey, ...made };
  });
}
