// A turn's sink on a chat platform. The answer grows in the platform's streaming card when the
// channel has one (DingTalk AI card, Feishu card updates), and is delivered once it ended: as the
// card's final text, or as a plain reply. Passages from the agent's training sets are cited in a
// last line, since a chat platform shows no citation panel. A failure is said politely.
// An agent that draws or films answers with media: while the job runs the card says so, and the
// answer is the pictures and videos themselves (sent as the platform's own messages), not the
// markdown that links them.
import { getT } from "../../server/i18n/translate";
import type { TPassage } from "../../server/turns/prompt-assembly";
import type { TTurnMedia, TTurnSink } from "../../server/turns/sink";
import type { StreamingReply } from "./channel";

/** `media`: the pictures and videos to send after `text` (which is then empty: they are the answer). */
export type TBotAnswer = { text: string; media: TTurnMedia[]; dialogueId: string | null; answered: boolean };

/** The step a generation reports its progress as. */
const GENERATION_STEP = "media_generate";

export type TBotSink = TTurnSink & {
  /** The agent run threw instead of ending: the polite failure is said. */
  failPolitely(): void;
  /** Once the turn returned: the words to deliver, after the card updates still on their way. */
  answer(): Promise<TBotAnswer>;
};

const MAX_SOURCES = 5;

export function createBotSink(streaming: StreamingReply | null, lng: string): TBotSink {
  const controller = new AbortController();
  let content = "";
  let dialogueId: string | null = null;
  let ending: { kind: "finished"; passages: TPassage[]; media: TTurnMedia[] } | { kind: "said"; words: string } | null = null;
  let updates: Promise<void> = Promise.resolve();
  let generating = false;
  const politeFailure = () => getT(lng, "bots")("reply.failed");
  const show = (text: string) => {
    if (streaming) updates = updates.then(() => streaming.update(text)).catch(() => undefined);
  };
  return {
    signal: controller.signal,
    begin(reply) {
      dialogueId = reply.dialogueId;
    },
    delta({ content: piece }) {
      if (!piece) return;
      content += piece;
      // A generation's text is the markdown of its results: they follow as pictures, not in the card.
      if (!generating) show(content);
    },
    // The steps of the agent's tools stay in the dialogue; the chat shows the answer. A generation
    // takes a while: the card says it is under way.
    tool(step) {
      if (step.name !== GENERATION_STEP || generating) return;
      generating = true;
      show(getT(lng, "bots")("reply.generating"));
    },
    finish({ passages, media }) {
      ending = { kind: "finished", passages, media: media ?? [] };
    },
    censor(words) {
      ending = { kind: "said", words };
    },
    // What was already said of a reply that broke off stays; else the polite failure (refusals the
    // sender can act on were said before the turn started streaming).
    fail() {
      ending = { kind: "said", words: content.trim() ? content : politeFailure() };
    },
    failPolitely() {
      ending = { kind: "said", words: content.trim() ? content : politeFailure() };
    },
    async answer() {
      await updates;
      if (ending?.kind === "finished" && ending.media.length) return { text: "", media: ending.media, dialogueId, answered: true };
      if (ending?.kind === "finished" && content.trim()) {
        return { text: `${content}${sourcesLine(ending.passages, lng)}`, media: [], dialogueId, answered: true };
      }
      return { text: ending?.kind === "said" ? ending.words : politeFailure(), media: [], dialogueId, answered: false };
    },
  };
}

/** The titles of the passages the answer drew on, each once, as a last line; "" when none. */
function sourcesLine(passages: TPassage[], lng: string) {
  const titles = [...new Set(passages.map((p) => p.title.trim()).filter(Boolean))].slice(0, MAX_SOURCES);
  return titles.length ? `\n\n${getT(lng, "bots")("reply.sources", { list: titles.join("; ") })}` : "";
}
