// Stream: the reply from the model to the sink, round by round. Deltas are relayed as they arrive
// (the reply row is written once, at the end), tool calls run for at most MAX_TOOL_ROUNDS rounds,
// output passes the sensitive-word censor, and a stop (this process or another, through the row's
// status) or the reader going away cancels the upstream request; what was delivered is kept.
// No text is relayed before the turn's charge is in; the turn's rows are written alongside.
import { createOutputCensor } from "../content/content.service";
import { AppError, isAppError } from "../errors/app-error";
import { mapError } from "../errors/map-error";
import { getT } from "../i18n/translate";
import { logger } from "../lib/logger";
import type { TChatStream } from "../models/gateway.service";
import type { TChatMessage as TGatewayMessage } from "../models/models.schema";
import type { TTurnCharges } from "../money/metering/chat-charges.service";
import type { TFunctionStep } from "../dialogues/chat.schema";
import { forgetStoppable, registerStoppable } from "../dialogues/stop-registry";
import type { TTurnOpening } from "./open";
import { MAX_TOOL_ROUNDS, openRound } from "./round";
import { settleTurn, writeTurnRows, type TOutcome, type TTurnResult } from "./settle";
import type { TTurnSink } from "./sink";
import { runTool } from "./tools";

type TToolCall = { id: string; name: string; arguments: string };

export async function streamTurn(opening: TTurnOpening, sink: TTurnSink, lng: string | undefined) {
  const { turn, assistantId } = opening;
  const { requestId, controller, first } = opening.round;
  // The charge went out with the upstream request; a refused one cancels the request.
  let refused: unknown = null;
  const noCharges: TTurnCharges = { chat: null, use: null };
  const charging = opening.charging.then(
    (c) => c,
    (err) => {
      refused = err;
      controller.abort(new Error("turn refused"));
      return noCharges;
    },
  );
  const onGone = () => controller.abort(new Error("client went away"));
  if (sink.signal.aborted) onGone();
  else sink.signal.addEventListener("abort", onGone, { once: true });
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
  const write = () => writeTurnRows(turn, assistantId, requestId).then(() => void (rowsWritten = true));
  const rows = (turn.existing ? write() : charging.then(() => (refused ? undefined : write()))).catch((err) => {
    rowsError = err;
    controller.abort(new Error("turn refused"));
  });
  const noUsage = { prompt_tokens: 0, completion_tokens: 0 };
  const failedResult = (usage = noUsage): TTurnResult => ({
    outcome: "failed",
    content: "",
    reasoning: "",
    functions: [],
    usage,
    failure: rowsError,
    requestId,
  });
  if (turn.existing) await rows;
  if (rowsError) {
    first.then(
      (s) => void s[Symbol.asyncIterator]().return?.(undefined),
      () => undefined,
    );
    sink.signal.removeEventListener("abort", onGone);
    await settleTurn(turn, assistantId, charging, failedResult(), false);
    return sink.fail(mapError(rowsError, lng).envelope);
  }
  sink.begin({ messageId: assistantId, dialogueId: turn.dialogueId, showsReasoning: showReasoning });

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
        if (text || showReasoning) sink.delta(showReasoning && thought ? { content: text, reasoning: thought } : { content: text });
      });
      addUsage(stream);
      stream = null;
      if (outcome === "censored" || calls.size === 0 || round >= MAX_TOOL_ROUNDS) break;

      const toolCalls = [...calls.values()];
      messages.push({
        role: "assistant",
        content: roundContent || null,
        tool_calls: toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
      });
      for (const call of toolCalls) {
        const { step, forModel } = await runTool(call.name, call.arguments, turn.tools, controller.signal);
        if (controller.signal.aborted) throw controller.signal.reason;
        functions.push(step);
        sink.tool(step);
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
    sink.signal.removeEventListener("abort", onGone);
  }

  await rows;
  if (rowsError) {
    // The turn's rows could not be written: nothing to store the reply in.
    await settleTurn(turn, assistantId, charging, failedResult(usage), false);
    return sink.fail(mapError(rowsError, lng).envelope);
  }
  await settleTurn(turn, assistantId, charging, { outcome, content, reasoning, functions, usage, failure, requestId }, rowsWritten);
  if (outcome === "censored") return sink.censor(getT(lng, "errors")("output_review_failed"));
  if (outcome === "failed") return sink.fail(mapError(failure, lng).envelope);
  // A reader who went away reads nothing more; one who pressed stop is told the reply ended.
  if (outcome === "stopped" && !stoppedByUser) return;
  sink.finish({ userMessageId: turn.userMessage.id, content, passages: turn.passages, usage, stopped: outcome === "stopped" });
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
