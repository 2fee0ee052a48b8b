// REST and SSE of console chats: the debug and live streams (sinks/sse-sink.ts has the protocol),
// dialogues, feedback, stop and documents. Refusals that come before streaming starts (not logged
// in, validation, sensitive input, not found...) are one
// `error` event carrying the envelope, with HTTP 200, so EventSource-like clients can read them.
import express, { type Request, type Response } from "express";
import { mapError } from "../errors/map-error";
import { handle } from "../http/envelope-response";
import { readCookie, requireAuth } from "../http/auth-context";
import { getRequestLanguage } from "../http/request-context";
import { readMultipart } from "../uploads/multipart";
import { SESSION_COOKIE } from "../auth/session.service";
import { DOCUMENT_MAX_BYTES, ZFeedbackInput, ZListDialoguesQuery, ZMessageIdInput, ZRenameDialogueInput, ZSendMessageInput } from "../dialogues/chat.schema";
import { deleteDialogue, getDialogue, listDialogues, renameDialogue, setFeedback, stopMessage } from "../dialogues/dialogues.service";
import { uploadDocument } from "../dialogues/documents.service";
import { chatChargeKey } from "../money/metering/chat-charges.service";
import { CHAT_STREAM_PATHS } from "./chat-stream-paths";
import { claimHeadStart, claimSendInput } from "./head-start/early-start";
import { cancelHeadStart, openHeadStart, type THeadStart } from "./head-start/head-start";
import { buildTurn, readConsoleTurn, runTurn, type TTurn } from "./index";
import { afterUpstreamWrite } from "./round";
import { startSseSink } from "./sinks/sse-sink";

/**
 * Nothing goes upstream before the session, the agent and every refusal are settled, except the
 * warm session's early request, which is cancelled unless the settled turn asks exactly the same.
 */
async function streamConsoleTurn(req: Request, res: Response, mode: "debug" | "live") {
  const sink = startSseSink(res);
  const lng = getRequestLanguage(req);
  let turn: TTurn;
  // Opened ahead of Express (head-start/early-start.ts), its request already written; or opened here.
  let headStart: THeadStart | null = claimHeadStart(req);
  try {
    const input = claimSendInput(req, req.body) ?? ZSendMessageInput.parse(req.body ?? {});
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    // A warm session's request leaves first; the turn's own reading decides whether it is kept.
    const openedHere = !headStart;
    if (openedHere) headStart = await openHeadStart(token, input, mode);
    // Its own reading waits until that request is written (undici writes to a kept-alive connection
    // a check phase later, and the reading's work would go first). It may then meet the early charge
    // already posted: it reads the balances from before it, so the turn still pays for itself once.
    if (headStart && openedHere) await afterUpstreamWrite();
    const { account, ctx } = await readConsoleTurn(token, input, mode, headStart ? chatChargeKey(headStart.charge.assistantId) : null);
    turn = await buildTurn(account, input, ctx);
  } catch (err) {
    await cancelHeadStart(headStart);
    sink.fail(mapError(err, lng).envelope);
    return;
  }
  await runTurn(turn, sink, lng, headStart);
}

export function chatStreamHandler(mode: "debug" | "live") {
  return (req: Request, res: Response) => void streamConsoleTurn(req, res, mode);
}

export function createChatRouter() {
  const router = express.Router();
  router.post(CHAT_STREAM_PATHS.debug, chatStreamHandler("debug"));
  // CHAT_STREAM_PATHS.live is served by the app runtime (server/apps/app-chat.http.ts), which
  // hands a request naming no app and carrying no key back to chatStreamHandler("live").
  router.post(
    "/v1/ai_message/stop",
    handle(async (req) => stopMessage((await requireAuth(req)).account, ZMessageIdInput.parse(req.body ?? {}))),
  );
  router.post(
    "/v1/ai_message/feedback",
    handle(async (req) => setFeedback((await requireAuth(req)).account, ZFeedbackInput.parse(req.body ?? {}))),
  );
  router.post(
    "/v1/ai_message/document",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      return uploadDocument(account, await readMultipart(req, { files: { file: DOCUMENT_MAX_BYTES }, maxFields: 5 }));
    }),
  );
  router.get(
    "/v1/dialogues",
    handle(async (req) => listDialogues((await requireAuth(req)).account, ZListDialoguesQuery.parse(req.query))),
  );
  router.get(
    "/v1/dialogues/:id",
    handle(async (req) => getDialogue((await requireAuth(req)).account, req.params.id)),
  );
  router.put(
    "/v1/dialogues/:id",
    handle(async (req) => renameDialogue((await requireAuth(req)).account, req.params.id, ZRenameDialogueInput.parse(req.body ?? {}))),
  );
  router.delete(
    "/v1/dialogues/:id",
    handle(async (req) => deleteDialogue((await requireAuth(req)).account, req.params.id)),
  );
  return router;
}
