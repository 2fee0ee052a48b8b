// The turn pipeline: one agent turn, from the message to the stored reply, for every channel (the
// debug and app chats, the OpenAI-compatible API, bots). Read top to bottom:
//
//   read      read.ts       the session, agent version, dialogue, balances and model, in one round
//                           trip (an app's turn reads its own way: apps/app-turn.service.ts)
//   decide    decide.ts     every refusal left: the message answered, a reply in progress,
//                           sensitive input, the model, the variables
//   assemble  assemble.ts   the prompt: retrieval (dependencies.ts), the document, history, tools
//   open      open.ts       the first upstream request and the charge leave (or are taken from
//                           the head start, head-start/, which only read and open know about)
//   stream    stream.ts     the reply to a sink (sink.ts), tool rounds, censor, stop
//   settle    settle.ts     the stored reply, the charges, an app's use
//
// A refusal in read, decide or assemble reaches the sink as `fail` before anything was written or
// charged. Transport (chat.http.ts, apps/app-chat.http.ts, the OpenAI-compatible API, the bot
// gateway) only picks the sink and calls the phases.
import { getT } from "../i18n/translate";
import { cancelHeadStart, type THeadStart } from "./head-start/head-start";
import { streamMediaTurn } from "./media-turn";
import { openTurn } from "./open";
import type { TTurnSink } from "./sink";
import { streamTurn } from "./stream";
import type { TTurn } from "./turn";

export { buildTurn } from "./assemble";
export { readConsoleTurn } from "./read";
export type { TTurnSink } from "./sink";
export type { TActor, TTurn, TTurnContext, TTurnEnd } from "./turn";

/** Runs a decided and assembled turn into a sink; `headStart` is what a head start sent ahead, if any. */
export async function runTurn(turn: TTurn, sink: TTurnSink, lng: string | undefined, headStart: THeadStart | null = null) {
  // An offline agent with no out-of-scope reply of its own still says something, in the reader's language.
  if (turn.offlineReply === "") turn = { ...turn, offlineReply: getT(lng, "chat")("offline.no_answer") };
  // A picture or video model answers with a generation job, not a chat completion.
  if (turn.modelKind === "image" || turn.modelKind === "video") {
    await cancelHeadStart(headStart);
    return streamMediaTurn(turn, turn.modelKind, sink, lng);
  }
  await streamTurn(await openTurn(turn, headStart), sink, lng);
}
