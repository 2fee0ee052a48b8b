// Settle: what a turn leaves behind. Its rows (the user's message and the reply, written while the
// reply streams), the stored reply once it ended, the charges (kept for a reply given, returned
// when none came), and an app's use (counted or released). The model's request log is written by
// the model gateway for each round. Failures here are logged, never shown: the reader already has
// the reply.
import { logger } from "../lib/logger";
import { settleTurn as settleCharged, type TTurnCharges } from "../money/metering/chat-charges.service";
import type { TFunctionStep } from "../dialogues/chat.schema";
import * as repo from "../dialogues/dialogues.repository";
import { STALE_STREAMING_MS, type TTurn, type TTurnEnd } from "./turn";
import type { TTurnUsage } from "./sink";

export type TOutcome = TTurnEnd["outcome"];

export type TTurnResult = {
  outcome: TOutcome;
  content: string;
  reasoning: string;
  functions: TFunctionStep[];
  usage: TTurnUsage;
  failure: unknown;
  requestId: string;
};

/** After the reply ended: the stored reply (when its rows were written), the charges, the app's use. */
export async function settleTurn(turn: TTurn, assistantId: string, charging: Promise<TTurnCharges>, result: TTurnResult, rowsWritten: boolean) {
  if (rowsWritten) await storeReply(turn, assistantId, result);
  const { outcome, content, usage } = result;
  await settleCharges(turn, assistantId, await charging, (outcome === "done" || outcome === "stopped") && content.length > 0);
  await endAppTurn(turn, { outcome, content, dialogueId: turn.dialogueId, usage });
}

/** A reply given settles the turn's charges; none returns them. A failure here is logged, never shown. */
async function settleCharges(turn: TTurn, assistantId: string, charges: TTurnCharges, replied: boolean) {
  try {
    await settleCharged(turn.bill, assistantId, turn.dialogueId, charges, replied);
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

/** The user's message (when new) and the reply's row, "streaming" until it ends. */
export async function writeTurnRows(turn: TTurn, assistantId: string, requestId: string) {
  if (turn.rows) return turn.rows.write(turn, assistantId, requestId);
  const now = Date.now();
  const rows = [
    ...(turn.userMessage.isNew
      ? [
          {
            id: turn.userMessage.id,
            dialogueId: turn.dialogueId,
            role: "user" as const,
            content: turn.userMessage.content,
            images: turn.userMessage.images ?? [],
            status: "done" as const,
            createdAt: new Date(now),
          },
        ]
      : []),
    {
      id: assistantId,
      dialogueId: turn.dialogueId,
      role: "assistant" as const,
      status: "streaming" as const,
      replacesId: turn.replacesId,
      requestId,
      modelKey: turn.modelKey,
      createdAt: new Date(now + 1),
    },
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

async function storeReply(turn: TTurn, assistantId: string, r: TTurnResult) {
  try {
    if (turn.rows) return await turn.rows.finish(assistantId, r);
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
