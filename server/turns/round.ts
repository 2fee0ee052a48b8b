// One round of a chat turn with the upstream: the gateway call the stream relays (stream.ts), and
// the first round's own request id and cancel switch, which a head start opens early (head-start/).
import crypto from "node:crypto";
import { completeChat } from "../models/gateway.service";
import type { TChatMessage as TGatewayMessage } from "../models/models.schema";
import type { TTurn } from "./turn";

export const MAX_TOOL_ROUNDS = 3;

/** Opens one round of the turn with the upstream (round 0 is the user's message). */
export function openRound(
  turn: Pick<TTurn, "modelKey" | "params" | "tools" | "actor" | "offlineReply">,
  messages: TGatewayMessage[],
  round: number,
  requestId: string,
  signal: AbortSignal,
) {
  return completeChat({
    modelKey: turn.modelKey,
    messages,
    params: turn.params,
    // Usage as the upstream counts it (billing); the gateway estimates when none comes.
    extra: {
      stream_options: { include_usage: true },
      ...(turn.tools.length ? { tools: turn.tools, ...(round >= MAX_TOOL_ROUNDS ? { tool_choice: "none" } : {}) } : {}),
    },
    accountId: turn.actor.id,
    signal,
    requestId,
    stream: true,
    cachedRouting: true,
    offlineReply: turn.offlineReply,
  });
}

export type TFirstRound = { requestId: string; controller: AbortController; first: ReturnType<typeof openRound> };

/** Round 0 with the request id its rows and log share, and the controller that cancels the whole turn. */
export function openFirstRound(turn: TTurn): TFirstRound {
  const requestId = crypto.randomUUID();
  const controller = new AbortController();
  const first = openRound(turn, turn.messages, 0, requestId, controller.signal);
  first.catch(() => undefined);
  return { requestId, controller, first };
}

/**
 * Resolves once a request opened in this turn of the event loop has been written upstream, so the
 * work that follows it (the charge, the rows, the turn's own reading) does not go first. A new
 * connection is written to within the turn; a kept-alive one in the next check phase (undici
 * first lets the poll phase show whether the server closed it), hence two immediates, not one.
 */
export function afterUpstreamWrite() {
  return new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** Cancels a round nobody will read: the request, or the stream it already opened. */
export function dropFirstRound(round: TFirstRound, reason: string) {
  round.controller.abort(new Error(reason));
  round.first.then(
    (s) => void s[Symbol.asyncIterator]().return?.(undefined),
    () => undefined,
  );
}
