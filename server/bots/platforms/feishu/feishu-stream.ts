// A Feishu reply that grows while the agent writes: a card saying the agent is thinking, patched
// with the whole text so far at most every FEISHU_PATCH_MS (Feishu allows 5 updates a second per
// message; slower keeps a long answer well inside that), then once more with the final text and no
// thinking marker. Only the first card's worth streams; the rest of a long answer follows as
// further reply cards when it is finished.
import type { StreamingReply } from "../../../../bot-gateway/core/channel";
import { logger } from "../../../lib/logger";
import type { FeishuApi } from "./feishu-api";
import { markdownCard, splitCardText, thinkingCard } from "./feishu-card";

export const FEISHU_PATCH_MS = 500;

export async function startFeishuStream(api: FeishuApi, inbound: { messageId: string; key: string }, throttleMs = FEISHU_PATCH_MS): Promise<StreamingReply> {
  const cardId = await api.replyCard(inbound.messageId, thinkingCard(""), `${inbound.key}:stream`);
  return new FeishuStream(api, inbound, cardId, throttleMs);
}

class FeishuStream implements StreamingReply {
  private latest = "";
  private shown = "";
  private lastPatchAt = Date.now();
  private timer: NodeJS.Timeout | null = null;
  private inflight: Promise<void> | null = null;
  private finished = false;

  constructor(
    private readonly api: FeishuApi,
    private readonly inbound: { messageId: string; key: string },
    private readonly cardId: string,
    private readonly throttleMs: number,
  ) {}

  /** Takes the text so far and returns at once: the card catches up on its own clock. */
  async update(text: string): Promise<void> {
    if (this.finished) return;
    this.latest = text;
    this.schedule();
  }

  async finish(text: string): Promise<void> {
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inflight;
    const [first, ...rest] = splitCardText(text);
    try {
      await this.api.patchCard(this.cardId, markdownCard(first));
    } catch (err) {
      // The card cannot be updated (deleted, too old): the answer still goes out, as a new card.
      logger.warn({ err: String(err) }, "feishu: final card update failed, replying anew");
      await this.api.replyCard(this.inbound.messageId, markdownCard(first), `${this.inbound.key}:final`);
    }
    for (const [i, part] of rest.entries()) await this.api.replyCard(this.inbound.messageId, markdownCard(part), `${this.inbound.key}:${i + 1}:${part}`);
  }

  private schedule() {
    if (this.timer || this.inflight || this.latest === this.shown) return;
    const wait = Math.max(0, this.lastPatchAt + this.throttleMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  private flush() {
    if (this.finished || this.latest === this.shown) return;
    const text = this.latest;
    this.inflight = this.api
      .patchCard(this.cardId, thinkingCard(splitCardText(text)[0]))
      .then(() => {
        this.shown = text;
      })
      .catch((err) => logger.debug({ err: String(err) }, "feishu: streaming card update failed"))
      .finally(() => {
        this.inflight = null;
        this.lastPatchAt = Date.now();
        this.schedule();
      });
  }
}
