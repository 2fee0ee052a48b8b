// The app runtime's REST and SSE: the app's send_message stream (a session, an API
// app's bearer key, or else the anonymous visitor's cookie), the consumer's own dialogues,
// feedback and entitlement. Transport only: the services decide.
import express, { type Request, type Response } from "express";
import { AppError } from "../errors/app-error";
import { mapError } from "../errors/map-error";
import { getAuth } from "../http/auth-context";
import { handle } from "../http/envelope-response";
import { getRequestLanguage } from "../http/request-context";
import { ZFeedbackInput, ZMessageIdInput, ZSendMessageInput } from "../dialogues/chat.schema";
import { ZAppDialoguesQuery, ZAppQuery } from "./app-consumer.schema";
import { chatStreamHandler } from "../turns/chat.http";
import { runTurn } from "../turns/index";
import { startSseSink } from "../turns/sinks/sse-sink";
import type { TConsumer } from "./app-entitlements.service";
import { getAppDialogue, getAppEntitlement, listAppDialogues, setAppFeedback, stopAppMessage } from "./app-consumer.service";
import { replySpeakerFor } from "./app-speech.service";
import { stageSpeakerFor } from "./digital-stage.service";
import { prepareAppTurn, type TAppCaller } from "./app-turn.service";
import { authenticateApiCall } from "./openai-compat/api-caller";
import { ensureVisitorId } from "./visitor";
import { CHAT_STREAM_PATHS } from "../turns/chat-stream-paths";

/** The signed-in account, else the visitor (the cookie is set on this response when new). */
export async function readConsumer(req: Request, res: Response): Promise<TConsumer> {
  const auth = await getAuth(req);
  if (auth) return { account: auth.account, visitorId: null };
  return { account: null, visitorId: ensureVisitorId(req, res) };
}

const liveAgentStream = chatStreamHandler("live");

async function streamAppTurn(req: Request, res: Response) {
  const bearer = req.headers.authorization?.startsWith("Bearer ");
  // No app and no key: an agent's live version chatted by its id, as the console's live chat.
  if (!bearer && !req.body?.app_id) return liveAgentStream(req, res);
  const lng = getRequestLanguage(req);
  let caller: TAppCaller | null = null;
  let early: unknown = null;
  try {
    if (bearer) {
      const call = await authenticateApiCall(req.headers.authorization);
      // The key names its app; another app's id answers not_found.
      if (!req.body?.app_id) req.body = { ...(req.body ?? {}), app_id: call.holder.appId };
      else if (req.body.app_id !== call.holder.appId) throw new AppError("not_found");
      caller = call.caller;
    } else {
      caller = { consumer: await readConsumer(req, res), source: "h5" };
    }
  } catch (err) {
    early = err;
  }
  let prepared: Awaited<ReturnType<typeof prepareAppTurn>> | null = null;
  if (!early && caller) {
    try {
      prepared = await prepareAppTurn(ZSendMessageInput.parse(req.body ?? {}), caller);
    } catch (err) {
      early = err;
    }
  }
  // An H5 app that auto-plays its replies, and every digital human, gets each one's audio with the stream's close.
  const speakReply = prepared && caller ? (stageSpeakerFor(prepared.app, caller) ?? replySpeakerFor(prepared.app, caller)) : undefined;
  const sink = startSseSink(res, { speakReply });
  if (!prepared) return sink.fail(mapError(early, lng).envelope);
  await runTurn(prepared.turn, sink, lng);
}

export function appStreamHandler() {
  return (req: Request, res: Response) => void streamAppTurn(req, res);
}

export function createAppChatRouter() {
  const router = express.Router();
  router.post(CHAT_STREAM_PATHS.live, appStreamHandler());
  router.get(
    "/v2/app/dialogues",
    handle(async (req, res) => listAppDialogues(await readConsumer(req, res), ZAppDialoguesQuery.parse(req.query))),
  );
  router.get(
    "/v2/app/dialogues/:id",
    handle(async (req, res) => getAppDialogue(await readConsumer(req, res), req.params.id)),
  );
  router.post(
    "/v2/app/feedback",
    handle(async (req, res) => setAppFeedback(await readConsumer(req, res), ZFeedbackInput.parse(req.body ?? {}))),
  );
  router.post(
    "/v2/app/stop",
    handle(async (req, res) => stopAppMessage(await readConsumer(req, res), ZMessageIdInput.parse(req.body ?? {}))),
  );
  router.get(
    "/v2/app/entitlement",
    handle(async (req, res) => getAppEntitlement(await readConsumer(req, res), ZAppQuery.parse(req.query))),
  );
  return router;
}
