// A reply that grows in a DingTalk AI card while the agent writes: the card is created and delivered
// into the chat first, then each update replaces the card's content variable with the whole text so
// far. Updates are throttled (DingTalk limits how often a card may change, and a typing effect does
// not need every token): at most one request in flight, one every THROTTLE_MS, and the newest text
// always wins. The last update finalizes the card (isFinalize), or marks it failed (isError).
import crypto from "node:crypto";
import type { StreamingReply } from "../../../../bot-gateway/core/channel";
import { logger } from "../../../lib/logger";
import { createAndDeliverCard, streamCard, type TCardSpace, type TDingtalkApp } from "./dingtalk-api";

export const CARD_THROTTLE_MS = 300;
/** The template's variable that holds the answer (an AI card template with a streaming markdown field). */
export const CARD_CONTENT_KEY = "content";

export type TCardReply = StreamingReply & {
  readonly outTrackId: string;
  /** Ends the card in its error state, with `text` as its content. */
  fail(text: string): Promise<void>;
};

export async function startAiCardReply(app: TDingtalkApp, opts: { templateId: string; space: TCardSpace; throttleMs?: number }): Promise<TCardReply> {
  const outTrackId = `zelin_${crypto.randomUUID().replaceAll("-", "")}`;
  const throttleMs = opts.throttleMs ?? CARD_THROTTLE_MS;
  await createAndDeliverCard(app, { outTrackId, templateId: opts.templateId, params: { [CARD_CONTENT_KEY]: "" }, space: opts.space });

  let sent = "";
  let pending: string | null = null;
  let lastStart = 0;
  let inFlight: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let done = false;

  const put = (content: string, isFinalize: boolean, isError: boolean) => streamCard(app, { outTrackId, key: CARD_CONTENT_KEY, content, isFinalize, isError });

  function schedule() {
    if (done || inFlight || timer || pending === null) return;
    timer = setTimeout(flush, Math.max(0, lastStart + throttleMs - Date.now()));
  }

  function flush() {
    timer = null;
    if (done || pending === null || pending === sent) {
      pending = null;
      return;
    }
    const content = pending;
    pending = null;
    lastStart = Date.now();
    inFlight = put(content, false, false)
      .then(() => {
        sent = content;
      })
      // A lost intermediate update is made good by the next one (each carries the whole text).
      .catch((err) => logger.warn({ err, outTrackId }, "dingtalk: card update failed"))
      .finally(() => {
        inFlight = null;
        schedule();
      });
  }

  async function end(text: string, isError: boolean) {
    if (done) return;
    done = true;
    if (timer) clearTimeout(timer);
    timer = null;
    pending = null;
    await inFlight;
    await put(text, true, isError);
    sent = text;
  }

  return {
    outTrackId,
    async update(text) {
      if (done) return;
      pending = text;
      schedule();
    },
    finish: (text) => end(text, false),
    fail: (text) => end(text, true),
  };
}
