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
import { DOCUMENT_MAX_BYTES, ZSendMessageInput, type TSendMessageInput } from "./chat.schema";
import { buildTurn, loadTurnContext, type TActor, type TTurn } from "./chat.service";
import { dropEarly, runTurn, type TEarlyStart } from "./chat-stream";
import { isSameRequest, remember, speculate } from "./turn-speculation";
import { deleteDialogue, getDialogue, listDialogues, renameDialogue, setFeedback, stopMessage } from "./dialogues.service";
import { uploadDocument } from "./documents.service";
import { startSse } from "./sse-writer";

async function streamTurn(req: Request, res: Response, mode: "debug" | "live") {
  const sse = startSse(res);
  const lng = getRequestLanguage(req);
  let turn: TTurn;
  let spec: Awaited<ReturnType<typeof speculate>> = null;
  let early: TEarlyStart | undefined;
  try {
    const input = ZSendMessageInput.parse(req.body ?? {});
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    spec = await speculate(token, input, mode);
    const { account, ctx } = await loadWithAuth(req, input, mode, spec?.turn.actor);
    turn = await buildTurn(account, input, ctx);
    remember(token, input, mode, account, ctx);
    if (spec && isSameRequest(spec.turn, turn)) early = spec.early;
    else if (spec) dropEarly(spec.early);
  } catch (err) {
    if (spec) dropEarly(spec.early);
    sse.error(mapError(err, lng).envelope);
    return;
  }
  await runTurn(turn, sse, lng, early);
}

/**
 * The session and the turn's reads. With a head start the reads run beside the session check
 * for the account remembered; they count only if the session is that account's.
 */
async function loadWithAuth(req: Request, input: TSendMessageInput, mode: "debug" | "live", guess: TActor | undefined) {
  if (!guess) {
    const { account } = await requireAuth(req);
    return { account, ctx: await loadTurnContext(account, input, mode) };
  }
  const [auth, ctx] = await Promise.allSettled([requireAuth(req), loadTurnContext(guess, input, mode)]);
  if (auth.status === "rejected") throw auth.reason;
  const account = auth.value.account;
  if (account.id !== guess.id) return { account, ctx: await loadTurnContext(account, input, mode) };
  if (ctx.status === "rejected") throw ctx.reason;
  return { account, ctx: ctx.value };
}

export function createChatRouter() {
  const router = express.Router();
  router.post("/v1/ai_message/send_message/sse", (req, res) => void streamTurn(req, res, "debug"));
  router.post("/v2/app/send_message/sse", (req, res) => void streamTurn(req, res, "live"));
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
