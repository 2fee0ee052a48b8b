// A warm turn's upstream request leaves before Express sees the chat stream's request, for the
// time to the first token (docs/decisions/0019-*). In front of the web app: for the two stream routes, the
// body is read here, and when the session has a warm reading (warm-turns.ts) and the request
// passes what the route's middleware would check first (licence, CSRF), the early turn opens
// (head-start.ts); Express runs once its request is written. The route then takes the early turn
// (`claimHeadStart`) and decides everything as always: every refusal, the reading, whether the
// early request is kept. An early turn the route never claims is cancelled when the response ends.
import type { IncomingMessage, RequestListener } from "node:http";
import { readCookie } from "../../http/auth-context";
import { CSRF_HEADER, echoesCsrfCookie } from "../../http/csrf";
import { JSON_BODY_LIMIT, readJsonBody, type TJsonBodyOutcome } from "../../http/json-body";
import { getLicenceStatus } from "../../platform/licence.service";
import { SESSION_COOKIE } from "../../auth/session.service";
import { ZSendMessageInput, type TSendMessageInput } from "../../dialogues/chat.schema";
import { CHAT_STREAM_PATHS } from "../chat-stream-paths";
import { cancelHeadStart, openHeadStart, type THeadStart } from "./head-start";
import { afterUpstreamWrite } from "../round";

type TEarlyRequest = IncomingMessage & {
  jsonBodyRead?: TJsonBodyOutcome;
  earlyTurn?: THeadStart | null;
  sendInput?: { body: unknown; input: TSendMessageInput };
};

const MODES = new Map<string, "debug" | "live">([
  [`/api${CHAT_STREAM_PATHS.debug}`, "debug"],
  [`/api${CHAT_STREAM_PATHS.live}`, "live"],
]);

/** The web app behind the early start. */
export function startTurnsEarly(app: RequestListener): RequestListener {
  return (request, res) => {
    const req = request as TEarlyRequest;
    const mode = req.method === "POST" ? MODES.get(req.url ?? "") : undefined;
    const token = mode ? readCookie(req.headers.cookie, SESSION_COOKIE) : undefined;
    if (!mode || !token || !mayStartEarly(req)) return app(req, res);
    readJsonBody(req, JSON_BODY_LIMIT, (outcome) => {
      if (outcome.kind === "gone") return;
      // Express's body reader takes this as read: the same refusals, the same body.
      req.jsonBodyRead = outcome;
      if (outcome.kind !== "body") return app(req, res);
      const input = ZSendMessageInput.safeParse(outcome.body);
      if (!input.success) return app(req, res);
      req.sendInput = { body: outcome.body, input: input.data };
      openHeadStart(token, input.data, mode).then(
        (early) => {
          if (!early) return app(req, res);
          req.earlyTurn = early;
          res.once("close", () => void cancelHeadStart(claimHeadStart(req)));
          afterUpstreamWrite().then(() => app(req, res));
        },
        () => app(req, res),
      );
    });
  };
}

/** The early turn opened for this request ahead of Express, once: the caller runs it or cancels it. */
export function claimHeadStart(req: IncomingMessage): THeadStart | null {
  const r = req as TEarlyRequest;
  const early = r.earlyTurn ?? null;
  r.earlyTurn = null;
  return early;
}

/**
 * The payload as parsed here, when the route's body is still the one parsed (Express's body reader
 * takes the same object): the route need not parse it again.
 */
export function claimSendInput(req: IncomingMessage, body: unknown): TSendMessageInput | null {
  const r = req as TEarlyRequest;
  const parsed = r.sendInput;
  r.sendInput = undefined;
  return parsed && parsed.body === body ? parsed.input : null;
}

/**
 * What the route's middleware refuses before anything else (a read-only deployment, a missing CSRF
 * echo), and an API key's call, which the app runtime serves as its app's, never as a warm turn.
 */
function mayStartEarly(req: IncomingMessage) {
  if (req.headers.authorization?.startsWith("Bearer ")) return false;
  if (getLicenceStatus().status === 10002) return false;
  return echoesCsrfCookie(req.headers.cookie, req.headers[CSRF_HEADER] as string | undefined);
}
