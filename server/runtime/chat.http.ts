// REST and SSE of the chat runtime (issue 4; the stream protocol of DESIGN 7). Refusals that come
// before streaming starts (not logged in, validation, sensitive input, not found...) are one
// `error` event carrying the envelope, with HTTP 200, so EventSource-like clients can read them.
import express, { type Request, type Response } from "express";
import { mapError } from "../errors/map-error";
import { handle } from "../http/envelope-response";
import { readCookie, requireAuth } from "../http/auth-context";
import { getRequestLanguage } from "../http/request-context";
import { readMultipart } from "../uploads/multipart";
import { SESSION_COOKIE } from "../auth/session.service";
import { DOCUMENT_MAX_BYTES, ZSendMessageInput } from "./chat.schema";
import { buildTurn, loadTurnContext, type TTurn } from "./chat.service";
import { runTurn } from "./chat-stream";
import { cancelEarlyTurn, openEarlyTurn, type TEarlyTurn } from "./early-turn";
import { deleteDialogue, getDialogue, listDialogues, renameDialogue, setFeedback, stopMessage } from "./dialogues.service";
import { uploadDocument } from "./documents.service";
import { startSse } from "./sse-writer";
import { CHAT_STREAM_PATHS } from "./chat-stream-paths";
import { claimEarlyTurn, claimSendInput } from "./early-start";
import { afterUpstreamWrite } from "./turn-round";
import { chatChargeKey } from "../money/metering/chat-charges.service";

/**
 * Nothing goes upstream before the session, the agent and every refusal are settled, except the
 * warm session's early request, which is cancelled unless the settled turn asks exactly the same.
 */
async function streamTurn(req: Request, res: Response, mode: "debug" | "live") {
  const sse = startSse(res);
  const lng = getRequestLanguage(req);
  let turn: TTurn;
  // Opened ahead of Express (early-start.ts), its request already written; or opened here.
  let early: TEarlyTurn | null = claimEarlyTurn(req);
  try {
    const input = claimSendInput(req, req.body) ?? ZSendMessageInput.parse(req.body ?? {});
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    // A warm session's request leaves first; the turn's own reading decides whether it is kept.
    const openedHere = !early;
    if (openedHere) early = await openEarlyTurn(token, input, mode);
    // Its own reading waits until that request is written (undici writes to a kept-alive connection
    // a check phase later, and the reading's work would go first). It may then meet the early charge
    // already posted: it reads the balances from before it, so the turn still pays for itself once.
    if (early && openedHere) await afterUpstreamWrite();
    const { account, ctx } = await loadTurnContext(token, input, mode, early ? chatChargeKey(early.charge.assistantId) : null);
    turn = await buildTurn(account, input, ctx);
  } catch (err) {
    await cancelEarlyTurn(early);
    sse.error(mapError(err, lng).envelope);
    return;
  }
  await runTurn(turn, sse, lng, early);
}

export function chatStreamHandler(mode: "debug" | "live") {
  return (req: Request, res: Response) => void streamTurn(req, res, mode);
}

export function createChatRouter() {
  const router = express.Router();
  router.post(CHAT_STREAM_PATHS.debug, chatStreamHandler("debug"));
  // CHAT_STREAM_PATHS.live is served by the app runtime (server/apps/app-chat.http.ts), which
  // hands a request naming no app and carrying no key back to chatStreamHandler("live").
  router.post("/v1/ai_message/stop", handle(async (req) => stopMessage((await requireAuth(req)).account, req.body)));
  router.post("/v1/ai_message/feedback", handle(async (req) => setFeedback((await requireAuth(req)).account, req.body)));
  router.post(
    "/v1/ai_message/document",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      return uploadDocument(account, await readMultipart(req, { files: { file: DOCUMENT_MAX_BYTES }, maxFields: 5 }));
    }),
  );
  router.get("/v1/dialogues", handle(async (req) => listDialogues((await requireAuth(req)).account, req.query)));
  router.get("/v1/dialogues/:id", handle(async (req) => getDialogue((await requireAuth(req)).account, req.params.id)));
  router.put("/v1/dialogues/:id", handle(async (req) => renameDialogue((await requireAuth(req)).account, req.params.id, req.body)));
  router.delete("/v1/dialogues/:id", handle(async (req) => deleteDialogue((await requireAuth(req)).account, req.params.id)));
  return router;
}
