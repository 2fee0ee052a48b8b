// Open: the first upstream request and the turn's charge leave. A head start (head-start/) may have
// sent both already, while the turn was still being read; it is taken when the decided turn asks
// exactly the same, else cancelled. Past this point nothing can tell whether the turn had one.
import { chargeTurn, type TTurnCharges } from "../money/metering/chat-charges.service";
import { takeHeadStart, type THeadStart } from "./head-start/head-start";
import { afterUpstreamWrite, openFirstRound, type TFirstRound } from "./round";
import { newId, type TTurn } from "./turn";

export type TTurnOpening = {
  turn: TTurn;
  /** The reply's id: its row, its charge and its events carry it. */
  assistantId: string;
  round: TFirstRound;
  /** The charge, posted while the upstream answers; rejects when it is refused. */
  charging: Promise<TTurnCharges>;
};

export async function openTurn(turn: TTurn, headStart: THeadStart | null): Promise<TTurnOpening> {
  const taken = takeHeadStart(headStart, turn);
  const round = taken.round ?? openFirstRound(turn);
  // A charge taken early names the dialogue it was posted for.
  if (taken.charge) turn = { ...turn, dialogueId: taken.charge.dialogueId };
  // The upstream request leaves first; the charge, the rows and the first event wait until it is
  // written. Nothing after is on the way to the first token: an upstream takes longer to answer
  // than all of it together. A round opened early was written before this turn's reading began:
  // waiting again would only put a turn of a busy event loop before the first event.
  if (!taken.round) await afterUpstreamWrite();
  const assistantId = taken.charge?.assistantId ?? turn.replyId ?? newId();
  // One refused early (the money went since) is posted again under the same key on the fresh reading.
  const early = taken.charge;
  const charging = early
    ? early.charging.then((c) => c ?? chargeTurn(turn.bill, assistantId, turn.dialogueId))
    : chargeTurn(turn.bill, assistantId, turn.dialogueId);
  return { turn, assistantId, round, charging };
}
