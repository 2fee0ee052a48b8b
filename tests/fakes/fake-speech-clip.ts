// A loopback OpenAI-compatible speech server (POST /v1/audio/speech) that answers every text with a
// real MP3 of a known length (a tone made by ffmpeg), so what is made from the speech (a digital
// human's video) can be measured against it. Any voice name is taken, as a server that speaks
// cloned voices takes its own ids; each request is recorded. `fail` answers the next requests 500.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderTestTone } from "../../workers/media/test-sources";
import { sendJson, startLoopback } from "./media-fake-kit";

export type TSpeechClipRequest = { model: string; voice: string; input: string };

export async function startFakeSpeechClip(opts: { apiKey: string; seconds: number }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zl-fake-speech-"));
  const file = path.join(dir, "speech.mp3");
  await renderTestTone(file, { seconds: opts.seconds, peakDb: -12 });
  const mp3 = fs.readFileSync(file);
  const spoken: TSpeechClipRequest[] = [];
  const state = { fail: false };

  const loopback = await startLoopback((got, res) => {
    if (got.method !== "POST" || got.path !== "/v1/audio/speech") return sendJson(res, 404, { error: { message: `no route ${got.path}` } });
    if (got.headers.authorization !== `Bearer ${opts.apiKey}`)
      return sendJson(res, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error" } });
    const body = got.body as TSpeechClipRequest;
    spoken.push({ model: body.model, voice: body.voice, input: body.input });
    if (state.fail) return sendJson(res, 500, { error: { message: "The server had an error while processing your request.", type: "server_error" } });
    res.writeHead(200, { "content-type": "audio/mpeg", "content-length": String(mp3.length) }).end(mp3);
  });

  return {
    base: `${loopback.origin}/v1`,
    spoken,
    state,
    durationMs: opts.seconds * 1000,
    close: async () => {
      await loopback.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
