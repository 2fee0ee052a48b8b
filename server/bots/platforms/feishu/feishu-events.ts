// Feishu's events as the gateway's inbound messages and greeting triggers. Both connection modes
// (long connection and webhook) hand us the SDK's flattened v2 event: the header's fields
// (event_id, token, app_id...) beside the event's own (sender, message, chat_id...).
import type { TGreetingTrigger, TInboundMessage } from "../../../../bot-gateway/core/channel";

export const FEISHU_EVENT = {
  message: "im.message.receive_v1",
  /** Users joined a group the bot is in. */
  userAdded: "im.chat.member.user.added_v1",
  /** Someone added the bot to a group. */
  botAdded: "im.chat.member.bot.added_v1",
  /** A user opened the one-to-one chat with the bot. */
  p2pEntered: "im.chat.access_event.bot_p2p_chat_entered_v1",
} as const;

type TUserId = { open_id?: string; user_id?: string; union_id?: string };
type TMention = { key: string; id?: TUserId; name?: string };

export type TFeishuMessageEvent = {
  event_id?: string;
  sender?: { sender_id?: TUserId; sender_type?: string };
  message?: { message_id: string; chat_id: string; chat_type: string; message_type: string; content: string; create_time?: string; mentions?: TMention[] };
};

export type TFeishuChatEvent = {
  event_id?: string;
  chat_id?: string;
  name?: string;
  operator_id?: TUserId;
  users?: { name?: string; user_id?: TUserId }[];
};

/**
 * A user's text (or rich-text "post") message as an inbound message; null for what the bot does not
 * answer: other bots' messages (no loops between bots), pictures, files, stickers and empty text.
 * `botOpenId` tells the bot's own mention from other people's; unknown (null), every mention
 * counts as the bot's, since Feishu delivers a group message to a bot only when it is mentioned
 * unless the app holds the "all group messages" permission.
 */
export function toInboundMessage(e: TFeishuMessageEvent, botOpenId: string | null): TInboundMessage | null {
  const m = e.message;
  const senderId = e.sender?.sender_id?.open_id;
  if (!m?.message_id || !senderId || e.sender?.sender_type !== "user") return null;
  const raw = messageText(m.message_type, m.content);
  if (raw === null) return null;
  const mentions = new Map((m.mentions ?? []).map((x) => [x.key, x]));
  let mentionedBot = false;
  const text = raw
    .replace(/@_user_\d+|@_all/g, (key) => {
      if (key === "@_all") return "@all";
      const who = mentions.get(key);
      if (!who) return "";
      if (botOpenId === null || who.id?.open_id === botOpenId) {
        mentionedBot = true;
        return "";
      }
      return `@${who.name ?? ""}`;
    })
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .trim();
  if (!text) return null;
  const group = m.chat_type !== "p2p";
  const created = Number(m.create_time);
  return {
    externalId: m.message_id,
    sender: { id: senderId, name: "" },
    conversation: group ? { kind: "group", id: m.chat_id } : { kind: "contact", id: senderId },
    text,
    mentionedBot,
    receivedAt: Number.isFinite(created) && created > 0 ? new Date(created) : new Date(),
    replyContext: { message_id: m.message_id },
  };
}

/** The words of a text or post message, mention placeholders kept; null for other kinds. */
function messageText(type: string, content: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(content);
  } catch {
    return null;
  }
  if (type === "text") return typeof (body as { text?: unknown }).text === "string" ? (body as { text: string }).text : null;
  if (type !== "post") return null;
  // A post is a title and paragraphs of inline elements (text, links, mentions, code...).
  const post = body as { title?: string; content?: { tag?: string; text?: string; user_id?: string; href?: string }[][] };
  const lines = (post.content ?? []).map((para) =>
    (Array.isArray(para) ? para : [])
      .map((el) => {
        if (el.tag === "at") return el.user_id ? ` ${el.user_id} ` : "";
        if (el.tag === "a") return el.href && el.text !== el.href ? `${el.text ?? ""} (${el.href})` : (el.text ?? el.href ?? "");
        return typeof el.text === "string" ? el.text : "";
      })
      .join(""),
  );
  return [post.title ?? "", ...lines].filter((l) => l.trim()).join("\n");
}

/**
 * A greeting trigger, or null. Joins and additions carry the event's id (each one greets once,
 * however often Feishu redelivers it). Opening the one-to-one chat fires every time the user
 * comes back, so its trigger is the user: a contact is greeted once, the first time.
 */
export function toGreetingTrigger(type: string, e: TFeishuChatEvent): TGreetingTrigger | null {
  if (type === FEISHU_EVENT.p2pEntered) {
    const openId = e.operator_id?.open_id;
    return openId ? { externalId: `p2p_entered:${openId}`, target: { kind: "contact", id: openId }, who: { id: openId, name: "" } } : null;
  }
  if (!e.chat_id || !e.event_id) return null;
  const target = { kind: "group" as const, id: e.chat_id, ...(e.name ? { name: e.name } : {}) };
  if (type === FEISHU_EVENT.userAdded) {
    const first = e.users?.find((u) => u.user_id?.open_id);
    if (!first) return null;
    return { externalId: e.event_id, target, who: { id: first.user_id!.open_id!, name: first.name ?? "" } };
  }
  if (type === FEISHU_EVENT.botAdded) {
    return { externalId: e.event_id, target, who: { id: e.operator_id?.open_id ?? "", name: "" } };
  }
  return null;
}
