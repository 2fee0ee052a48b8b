// The worker's file tools behind the server's port (server/media/file-work.ts): each reads an
// original from the file store, makes its derivatives (ffmpeg in a temporary folder of its own,
// removed afterwards), and writes them beside it. All of a file's derivatives are written, or none:
// a step that fails leaves nothing behind for the page to show half of.
import fsp from "node:fs/promises";
import path from "node:path";
import type { TFileWork } from "../../server/media/file-work";
import { derivedFileKey } from "../../server/uploads/stored-file";
import { normaliseAudio } from "./audio";
import { composite, excerptClip, measureFilming, measureVoice, prepareFigure } from "./digital-work";
import { getFfmpegPaths } from "./ffmpeg-path";
import { normaliseIconBytes } from "./icons";
import { makeImageDerivatives } from "./images";
import { probeMedia, shownSize } from "./probe";
import { MediaToolError } from "./run-tool";
import { putAll, readPicture, withLocalCopy, type TOutput } from "./store-io";
import { isPhonePlayable, renderPoster, transcodeToMp4 } from "./video";

async function deriveImage(key: string) {
  const made = await makeImageDerivatives(await readPicture(key));
  const web = derivedFileKey(key, "web", "webp");
  const thumb = derivedFileKey(key, "thumb", "webp");
  await putAll([
    { key: web, bytes: made.web, contentType: "image/webp" },
    { key: thumb, bytes: made.thumb, contentType: "image/webp" },
  ]);
  return { width: made.width, height: made.height, web, thumb };
}

function deriveVideo(key: string) {
  return withLocalCopy(key, async (input, dir) => {
    const probe = await probeMedia(input);
    if (!probe.video) throw new MediaToolError("reading the video failed: the file has no video stream");
    const outputs: TOutput[] = [];
    const posterFile = path.join(dir, "poster.jpg");
    await renderPoster(input, posterFile, probe);
    const poster = derivedFileKey(key, "poster", "jpg");
    outputs.push({ key: poster, bytes: await fsp.readFile(posterFile), contentType: "image/jpeg" });
    let play: string | null = null;
    if (!isPhonePlayable(probe)) {
      const playFile = path.join(dir, "play.mp4");
      await transcodeToMp4(input, playFile, probe);
      play = derivedFileKey(key, "play", "mp4");
      outputs.push({ key: play, bytes: await fsp.readFile(playFile), contentType: "video/mp4" });
    }
    await putAll(outputs);
    const size = shownSize(probe.video);
    return { durationMs: probe.durationMs, videoCodec: probe.video.codec, audioCodec: probe.audio?.codec ?? null, ...size, poster, play };
  });
}

function deriveAudio(key: string) {
  return withLocalCopy(key, async (input, dir) => {
    const probe = await probeMedia(input);
    const normFile = path.join(dir, "norm.mp3");
    await normaliseAudio(input, normFile, probe);
    const norm = derivedFileKey(key, "norm", "mp3");
    await putAll([{ key: norm, bytes: await fsp.readFile(normFile), contentType: "audio/mpeg" }]);
    return { durationMs: probe.durationMs, audioCodec: probe.audio?.codec ?? null, norm };
  });
}

async function normaliseIcon(key: string) {
  const icon = derivedFileKey(key, "icon", "png");
  await putAll([{ key: icon, bytes: await normaliseIconBytes(await readPicture(key)), contentType: "image/png" }]);
  return { icon };
}

/**
 * The implementation the worker installs with setFileWork (workers/main.ts). Which ffmpeg it runs is
 * decided (and logged) here, so a bad FFMPEG_PATH stops the worker at start, not at its first video.
 */
export function createFileWork(): TFileWork {
  getFfmpegPaths();
  return { deriveImage, deriveVideo, deriveAudio, normaliseIcon, measureFilming, prepareFigure, measureVoice, composite, excerptClip };
}
