// A turn's head start (warm-turns.ts, docs/decisions/0014-*): from the session's last reading, the
// first round's request and then the turn's charge leave while the turn's own reading runs. The
// fresh turn takes the request when it asks exactly the same, and the charge when the same payer
// owes the same price for a new dialogue; what it does not take is cancelled, and a charge not
// taken goes back. A turn refused by its fresh reading cancels both before its refusal is sent.
import { logger } from "../../lib/logger";
import { sha256 } from "../../lib/secret-box";
import { chargeTurn, settleTurn, turnPriceMicro, type TTurnBill, type TTurnCharges } from "../../money/metering/chat-charges.service";
import type { TSendMessageInput } from "../../dialogues/chat.schema";
import { buildTurn } from "../assemble";
import { afterUpstreamWrite, dropFirstRound, openFirstRound, type TFirstRound } from "../round";
import { newId, type TTurn } from "../turn";
import { recallTurn } from "./warm-turns";

export type TEarlyCharge = { assistantId: string; dialogueId: string; bill: TTurnBill; charging: Promise<TTurnCharges | null> };
/** What a head start sent ahead: the first round and the charge, for the turn that may take them. */
export type THeadStart = { signature: string; round: TFirstRound; charge: TEarlyCharge };

/** What the upstream is asked: two turns with the same signature send the same request. */
export function signatureOf(turn: TTurn) {
  return JSON.stringify([turn.actor.id, turn.modelKey, turn.messages, turn.params, turn.tools, turn.offlineReply]);
}

/**
 * Opens the first round from the session's warm reading, if it has one that qualifies, and posts
 * the charge one turn of the event loop later. Null when there is none, or when the warm reading
 * would refuse (the fresh one says why). Whoever gets one passes it to runTurn, or cancels it (cancelHeadStart).
 */
export async function openHeadStart(token: string | undefined, input: TSendMessageInput, mode: "debug" | "live"): Promise<THeadStart | null> {
  const warm = token ? recallTurn(sha256(token), mode, input) : null;
  if (!warm) return null;
  let turn: TTurn;
  try {
    turn = await buildTurn(warm.account, input, warm.ctx);
  } catch {
    return null;
  }
  // The offline channel answers in-process: nothing to gain.
  if (turn.offlineReply !== null) return null;
  const round = openFirstRound(turn);
  const assistantId = newId();
  // A charge refused here (the money went since) is left to the fresh turn, which charges again
  // under the same key and refuses with the fresh reading.
  const charging = afterUpstreamWrite()
    .then(() => chargeTurn(turn.bill, assistantId, turn.dialogueId))
    .catch(() => null);
  return { signature: signatureOf(turn), round, charge: { assistantId, dialogueId: turn.dialogueId, bill: turn.bill, charging } };
}

/** What the fresh turn takes of an early start; the rest is cancelled or returned. */
export function takeHeadStart(early: THeadStart | null, turn: TTurn): { round: TFirstRound | null; charge: TEarlyCharge | null } {
  if (!early) return { round: null, charge: null };
  const round = early.signature === signatureOf(turn) ? early.round : null;
  if (!round) dropFirstRound(early.round, "turn not taken");
  const { bill } = early.charge;
  const charge = !turn.existing && bill.payer === turn.bill.payer && turnPriceMicro(bill) === turnPriceMicro(turn.bill) ? early.charge : null;
  if (!charge) void returnCharge(early.charge);
  return { round, charge };
}

/** The fresh reading refused the turn: nothing of the early start stays. Resolves once the charge is back. */
export async function cancelHeadStart(early: THeadStart | null) {
  if (!early) return;
  dropFirstRound(early.round, "turn refused");
  await returnCharge(early.charge);
}

async function returnCharge({ assistantId, dialogueId, bill, charging }: TEarlyCharge) {
  const charges = await charging;
  if (!charges) return;
  try {
    await settleTurn(bill, assistantId, dialogueId, charges, false);
  } catch (err) {
    logger.error({ err, messageId: assistantId }, "could not return an early chat charge");
  }
}
