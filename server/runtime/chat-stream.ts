// One chat turn from the model call to the stored reply (DESIGN 7). The first upstream request
// starts while the turn's rows are written, so the database adds little to the first token; the
// first event carries the ids as soon as the rows exist. Deltas are relayed as they arrive (the
// reply row is written once, at the end), tool calls run for at most MAX_TOOL_ROUNDS rounds, output
// passes the sensitive-word censor, and a stop (this process or another, through the row's status)
// or the client going away cancels the upstream request; what was delivered is kept.
// Money (issue 7): the turn's charge is posted alongside the upstream request and the rows, and no
// text is relayed before it is in; when no reply came, what was charged goes back.
import { createOutputCensor } from "../content/content.service";
import { AppError, isAppError } from "../errors/app-error";
import { mapError } from "../errors/map-error";
import { getT } from "../i18n/translate";
import { logger } from "../lib/logger";
import type { TChatStream } from "../models/gateway.service";
import type { TChatMessage as TGatewayMessage } from "../models/models.schema";
import type { TFunctionStep } from "./chat.schema";
import { newId, STALE_STREAMING_MS, type TTurn, type TTurnEnd } from "./chat.service";
import { takeEarlyTurn, type TEarlyTurn } from "./early-turn";
import { afterUpstreamWrite, MAX_TOOL_ROUNDS, openFirstRound, openRound } from "./turn-round";
import * as repo from "./dialogues.repository";
import type { TSseWriter } from "./sse-writer";
import { forgetStoppable, registerStoppable } from "./stop-registry";
import { chargeTurn, settleTurn, type TTurnCharges } from "../money/metering/chat-charges.service";
import { runTool } from "./tools";

export { MAX_TOOL_ROUNDS };

type TToolCall = { id: string; name: string; arguments: string };
type TOutcome = "done" | "stopped" | "censored" | "failed";

/** `early`: the warm start of this turn (early-turn.ts): its request and charge are taken when they fit, else cancelled. */
export async function runTurn(turn: TTurn, sse: TSseWriter, lng: string | undefined, early: TEarlyTurn | null = null) {
  // An offline agent with no out-of-scope reply of its own still says something, in the reader's language.
  if (turn.offlineReply === "") turn = { ...turn, offlineReply: getT(lng, "chat")("offline.no_answer") };
  const taken = takeEarlyTurn(early, turn);
  const { requestId, controller, first } = taken.round ?? openFirstRound(turn);
  // A charge taken early names the dialogue it was posted for.
  if (taken.charge) turn = { ...turn, dialogueId: taken.charge.dialogueId };
  // The upstream request leaves first; the charge, the rows and the first event wait until it is
  // written. Nothing below is on the way to the first token: an upstream takes longer to answer
  // than all of it together. A round opened early was written before this turn's reading began:
  // waiting again would only put a turn of a busy event loop before the first event.
  if (!taken.round) await afterUpstreamWrite();
  const assistantId = taken.charge?.assistantId ?? newId();
  // The charge goes out with the upstream request (the balance was checked with the turn's reading),
  // or went out early; one refused early is posted again (same key) on the fresh reading.
  let charges: TTurnCharges = { chat: null, use: null };
  let refused: unknown = null;
  const posting = taken.charge ? taken.charge.charging.then((c) => c ?? chargeTurn(turn.bill, assistantId, turn.dialogueId)) : chargeTurn(turn.bill, assistantId, turn.dialogueId);
  const charging = posting.then(
    (c) => void (charges = c),
    (err) => {
      refused = err;
      controller.abort(new Error("turn refused"));
    },
  );
  const settle = async (outcome: TOutcome, content: string) => {
    await charging;
    await settleCharges(turn, assistantId, charges, (outcome === "done" || outcome === "stopped") && content.length > 0);
  };
  const onGone = () => controller.abort(new Error("client went away"));
  if (sse.signal.aborted) onGone();
  else sse.signal.addEventListener("abort", onGone, { once: true });
  const showReasoning = turn.agent.config.show_reasoning;
  const messages: TGatewayMessage[] = [...turn.messages];

  // The upstream request and the rows go out together; the first event waits for the rows only.
  const censor = createOutputCensor();
  censor.catch(() => undefined);
  // A new dialogue cannot be busy: its rows are written while the reply streams (the first token
  // does not wait for them) and must exist before the reply is stored. They go out once the charge
  // is in, so the charge (which the first token does wait for) has the database to itself, and a
  // charge refused after all writes no rows. An existing dialogue is locked and checked for a reply
  // in progress first, alongside the charge.
  let rowsError: unknown = null;
  let rowsWritten = false;
  const write = () => insertTurnRows(turn, assistantId, requestId).then(() => void (rowsWritten = true));
  const rows = (turn.existing ? write() : charging.then(() => (refused ? undefined : write()))).catch((err) => {
    rowsError = err;
    controller.abort(new Error("turn refused"));
  });
  if (turn.existing) await rows;
  if (rowsError) {
    first.then((s) => void s[Symbol.asyncIterator]().return?.(undefined), () => undefined);
    sse.signal.removeEventListener("abort", onGone);
    await settle("failed", "");
    await endAppTurn(turn, { outcome: "failed", content: "", dialogueId: turn.dialogueId, usage: { prompt_tokens: 0, completion_tokens: 0 } });
    return sse.error(mapError(rowsError, lng).envelope);
  }
  sse.setMeta({ id: assistantId, dialogue_id: turn.dialogueId });
  sse.message(showReasoning ? { content: "", reasoning_content: "" } : { content: "" });

  let stoppedByUser = false;
  // Stopped here or by another instance (the row's status, polled by the stop registry).
  registerStoppable(assistantId, turn.actor.id, () => {
    if (controller.signal.aborted) return;
    stoppedByUser = true;
    controller.abort(new Error("stopped"));
  });

  let content = "";
  let reasoning = "";
  const functions: TFunctionStep[] = [];
  const usage = { prompt_tokens: 0, completion_tokens: 0 };
  // Set inside the chunk handler too, which narrowing does not see.
  let outcome = "done" as TOutcome;
  let failure: unknown = null;
  let stream: TChatStream | null = null;
  const addUsage = (s: TChatStream | null) => {
    if (!s?.usage) return;
    usage.prompt_tokens += s.usage.promptTokens;
    usage.completion_tokens += s.usage.completionTokens;
  };

  try {
    // Nothing is shown unpaid: the first text waits for the charge (posted while the upstream answers).
    await charging;
    if (refused) throw refused;
    const contentCensor = await censor;
    const reasoningCensor = await createOutputCensor();
    for (let round = 0; ; round++) {
      stream = round === 0 ? await first : await openRound(turn, messages, round, requestId, controller.signal);
      const calls = new Map<number, TToolCall>();
      let roundContent = "";
      // Each chunk is handled in the upstream read that brought it (no await between the two sockets).
      await stream.pump((chunk) => {
        const delta = chunk.choices?.[0]?.delta as { content?: unknown; reasoning_content?: unknown; tool_calls?: unknown } | undefined;
        if (!delta) return;
        const text = typeof delta.content === "string" ? delta.content : "";
        const thought = typeof delta.reasoning_content === "string" ? delta.reasoning_content : "";
        if (Array.isArray(delta.tool_calls)) collectToolCalls(calls, delta.tool_calls);
        if (!text && !thought) return;
        if ((text && contentCensor.push(text).length) || (thought && reasoningCensor.push(thought).length)) {
          outcome = "censored";
          return false;
        }
        content += text;
        roundContent += text;
        if (showReasoning) reasoning += thought;
        if (text || showReasoning) sse.message(showReasoning && thought ? { content: text, reasoning_content: thought } : { content: text });
      });
      addUsage(stream);
      stream = null;
      if (outcome === "censored" || calls.size === 0 || round >= MAX_TOOL_ROUNDS) break;

      const toolCalls = [...calls.values()];
      messages.push({ role: "assistant", content: roundContent || null, tool_calls: toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) });
      for (const call of toolCalls) {
        const { step, forModel } = await runTool(call.name, call.arguments, turn.tools, controller.signal);
        if (controller.signal.aborted) throw controller.signal.reason;
        functions.push(step);
        sse.fn(step);
        messages.push({ role: "tool", tool_call_id: call.id, content: forModel });
      }
    }
  } catch (err) {
    addUsage(stream);
    if (refused) {
      outcome = "failed";
      failure = refused;
    } else if (controller.signal.aborted) outcome = "stopped";
    else {
      outcome = "failed";
      failure = toTurnError(err);
    }
  } finally {
    forgetStoppable(assistantId);
    sse.signal.removeEventListener("abort", onGone);
  }

  await rows;
  if (rowsError) {
    // The turn's rows could not be written: nothing to store the reply in.
    await settle("failed", "");
    await endAppTurn(turn, { outcome: "failed", content: "", dialogueId: turn.dialogueId, usage });
    return sse.error(mapError(rowsError, lng).envelope);
  }
  if (rowsWritten) await finishTurn(turn, assistantId, { outcome, content, reasoning, functions, usage, failure, requestId });
  await settle(outcome, content);
  await endAppTurn(turn, { outcome, content, dialogueId: turn.dialogueId, usage });
  if (outcome === "censored") return sse.censor(getT(lng, "errors")("output_review_failed"));
  if (outcome === "failed") return sse.error(mapError(failure, lng).envelope);
  // A client that went away reads nothing more; one that pressed stop gets the close event.
  if (outcome === "stopped" && !stoppedByUser) return;
  sse.close({ user_message_id: turn.userMessage.id, retrieve: turn.passages, audio: null, usage });
}

/** A reply given settles the turn's charges; none returns them. A failure here is logged, never shown. */
async function settleCharges(turn: TTurn, assistantId: string, charges: TTurnCharges, replied: boolean) {
  try {
    await settleTurn(turn.bill, assistantId, turn.dialogueId, charges, replied);
  } catch (err) {
    logger.error({ err, messageId: assistantId, replied }, "could not settle a chat charge");
  }
}

/** An app's turn records (or releases) its use once the reply ended; a failure there is only logged. */
async function endAppTurn(turn: TTurn, end: TTurnEnd) {
  if (!turn.app?.onFinished) return;
  try {
    await turn.app.onFinished(end);
  } catch (err) {
    logger.error({ err, dialogueId: turn.dialogueId }, "could not record an app use");
  }
}

/** Tool-call deltas come in pieces keyed by index: the id and name first, the arguments after. */
function collectToolCalls(calls: Map<number, TToolCall>, deltas: unknown[]) {
  for (const raw of deltas) {
    const d = raw as { index?: number; id?: string; function?: { name?: string; arguments?: string } };
    const index = d.index ?? 0;
    const call = calls.get(index) ?? { id: "", name: "", arguments: "" };
    if (d.id) call.id = d.id;
    if (d.function?.name) call.name += d.function.name;
    if (d.function?.arguments) call.arguments += d.function.arguments;
    calls.set(index, call);
  }
  for (const [i, c] of calls) if (!c.id) c.id = `call_${i}`;
}

/** Upstream failures read "the model could not answer"; our own refusals keep their code. */
function toTurnError(err: unknown) {
  if (isAppError(err) && err.code !== "system_busy") return err;
  if (!isAppError(err)) logger.warn({ err }, "chat turn failed");
  return new AppError("model_failed", { cause: err, data: isAppError(err) ? err.data : null });
}

async function insertTurnRows(turn: TTurn, assistantId: string, requestId: string) {
  const now = Date.now();
  const rows = [
    ...(turn.userMessage.isNew ? [{ id: turn.userMessage.id, dialogueId: turn.dialogueId, role: "user" as const, content: turn.userMessage.content, images: turn.userMessage.images ?? [], status: "done" as const, createdAt: new Date(now) }] : []),
    { id: assistantId, dialogueId: turn.dialogueId, role: "assistant" as const, status: "streaming" as const, replacesId: turn.replacesId, requestId, modelKey: turn.modelKey, createdAt: new Date(now + 1) },
  ];
  const dialogue = { agentVersionId: turn.agent.versionId, variables: turn.values, documentId: turn.documentId, lastMessageAt: new Date(now) };
  await repo.writeTurnRows(
    turn.existing
      ? { kind: "existing", dialogueId: turn.dialogueId, staleBefore: new Date(now - STALE_STREAMING_MS), dialogue, rows }
      : {
          kind: "new",
          dialogue: {
            id: turn.dialogueId,
            // An app's dialogue is its consumer's (an account or a visitor); a debug chat is the actor's.
            accountId: turn.app ? turn.app.accountId : turn.actor.id,
            ...(turn.app ? { appId: turn.app.appId, visitorId: turn.app.visitorId, source: turn.app.source } : {}),
            agentId: turn.agent.agentId,
            title: turn.title,
            ...dialogue,
          },
          rows,
        },
  );
}

async function finishTurn(
  turn: TTurn,
  assistantId: string,
  r: { outcome: TOutcome; content: string; reasoning: string; functions: TFunctionStep[]; usage: { prompt_tokens: number; completion_tokens: number }; failure: unknown; requestId: string },
) {
  try {
    await repo.finishReply(assistantId, {
      content: r.content,
      reasoning: r.reasoning,
      functions: r.functions as object[],
      retrieve: turn.passages as object[],
      status: r.outcome,
      promptTokens: r.usage.prompt_tokens,
      completionTokens: r.usage.completion_tokens,
      error: r.failure ? String((r.failure as Error).message ?? r.failure).slice(0, 500) : null,
    });
  } catch (err) {
    logger.error({ err, messageId: assistantId }, "could not store a chat reply");
  }
}
