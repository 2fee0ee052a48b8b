// REST of an app's voice and image input and voice output (H5): POST /v2/app/transcribe (a
// recorded clip, multipart) -> {text}; POST /v2/app/speech {app_id, text, job_id?} -> the audio
// (MP3 as the voice model made it), its kept URL in X-Audio-Url; POST /v2/app/image (a picture, multipart) -> {url}.
// Transport only: app-voice.service and app-speech.service decide.
import express, { type Request, type Response } from "express";
import { mapError } from "../errors/map-error";
import { handle } from "../http/envelope-response";
import { getRequestLanguage } from "../http/request-context";
import { readMultipart } from "../uploads/multipart";
import { readConsumer } from "./app-chat.http";
import { speakForApp, ZSpeechInput } from "./app-speech.service";
import { CHAT_IMAGE_LIMITS, checkImageUpload, checkTranscribe, MAX_AUDIO_BYTES, storeAppImage, transcribeForApp } from "./app-voice.service";

/** app_id from the query (read before the upload) or, failing that, the form. */
const queryAppId = (req: Request) => (typeof req.query.app_id === "string" ? req.query.app_id : undefined);

async function speak(req: Request, res: Response) {
  try {
    const consumer = await readConsumer(req, res);
    const spoken = await speakForApp(ZSpeechInput.parse(req.body ?? {}), consumer);
    res.status(200).set({ "content-type": spoken.mime, "cache-control": "no-store", "x-audio-url": spoken.url }).end(spoken.bytes);
  } catch (err) {
    const mapped = mapError(err, getRequestLanguage(req));
    res.status(mapped.httpStatus).json(mapped.envelope);
  }
}

export function createAppVoiceRouter() {
  const router = express.Router();
  router.post(
    "/v2/app/transcribe",
    handle(async (req, res) => {
      const consumer = await readConsumer(req, res);
      // Without the app in the query the form must be read first to learn it.
      let appId = queryAppId(req);
      if (appId) {
        const app = await checkTranscribe(appId, consumer);
        const { files } = await readMultipart(req, { files: { file: MAX_AUDIO_BYTES }, maxFields: 5 });
        return transcribeForApp(app, files.file?.bytes);
      }
      const { fields, files } = await readMultipart(req, { files: { file: MAX_AUDIO_BYTES }, maxFields: 5 });
      appId = fields.app_id;
      return transcribeForApp(await checkTranscribe(appId, consumer), files.file?.bytes);
    }),
  );
  router.post("/v2/app/speech", (req, res) => void speak(req, res));
  router.post(
    "/v2/app/image",
    handle(async (req, res) => {
      const consumer = await readConsumer(req, res);
      const appId = queryAppId(req);
      if (appId) {
        const app = await checkImageUpload(appId, consumer);
        const { files } = await readMultipart(req, { files: { file: CHAT_IMAGE_LIMITS.maxBytes }, maxFields: 5 });
        return storeAppImage(app, files.file?.bytes);
      }
      const { fields, files } = await readMultipart(req, { files: { file: CHAT_IMAGE_LIMITS.maxBytes }, maxFields: 5 });
      return storeAppImage(await checkImageUpload(fields.app_id, consumer), files.file?.bytes);
    }),
  );
  return router;
}
