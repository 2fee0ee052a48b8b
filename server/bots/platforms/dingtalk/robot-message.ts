// A message DingTalk delivers to a robot in stream mode (topic /v1.0/im/bot/messages/get; the
// frame's data is this JSON as a string), read into the gateway's inbound shape. Text, rich text
// and voice (DingTalk's own transcription) carry words; pictures and files alone do not, and are
// left unanswered.
import type { TInboundMessage } from "../../../../bot-gateway/core/channel";

export type TDingtalkRobotMessage = {
  msgId: string;
  msgtype: string;
  conversationId: string;
  /** "1": one to one with the robot; "2": a group. */
  conversationType: string;
  conversationTitle?: string;
  senderId: string;
  senderNick?: string;
  /** The sender's userId in the robot's organisation (absent for people outside it). */
  senderStaffId?: string;
  isInAtList?: boolean;
  sessionWebhook?: string;
  /** When the session webhook stops working (ms since the epoch). */
  sessionWebhookExpiredTime?: number;
  robotCode?: string;
  chatbotUserId?: string;
  createAt?: number;
  text?: { content?: string };
  content?: { richText?: Array<{ text?: string }>; recognition?: string };
};

/** What the channel needs later to answer the message (kept as JSON in the gateway's queue). */
export type TDingtalkReplyContext = {
  sessionWebhook: string;
  sessionWebhookExpiredTime: number;
  conversationId: string;
  conversationType: "1" | "2";
  robotCode: string;
  senderStaffId: string;
};

export const DINGTALK_TOPIC_ROBOT = "/v1.0/im/bot/messages/get";

/** The words of a message, or null when it has none (a picture, a file, an unknown type). */
function wordsOf(m: TDingtalkRobotMessage): string | null {
  if (m.msgtype === "text") return m.text?.content ?? "";
  if (m.msgtype === "richText") {
    const parts = (m.content?.richText ?? []).map((p) => p.text ?? "").filter(Boolean);
    return parts.length ? parts.join("\n") : null;
  }
  if (m.msgtype === "audio") return m.content?.recognition ?? null;
  return null;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The text without the robot's @mention (DingTalk usually removes it already, leaving the space). */
export function stripMention(text: string, botName: string): string {
  const name = botName.trim();
  const cleaned = name ? text.replace(new RegExp(`@${escapeRe(name)}(?=\\s|$)`, "g"), " ") : text;
  return cleaned.replace(/[ \t\u00a0\u2005]+/g, " ").trim();
}

/** The message as the gateway core takes it, or null when there is nothing to answer. */
export function readRobotMessage(raw: unknown, botName: string, now = new Date()): TInboundMessage | null {
  if (!raw || typeof raw !== "object") return null;
  const m = raw as TDingtalkRobotMessage;
  if (!m.msgId || !m.conversationId || !m.senderId) return null;
  const words = wordsOf(m);
  if (words === null) return null;
  const text = stripMention(words, botName);
  if (!text) return null;
  const isGroup = m.conversationType === "2";
  const senderId = m.senderStaffId || m.senderId;
  const replyContext: TDingtalkReplyContext = {
    sessionWebhook: m.sessionWebhook ?? "",
    sessionWebhookExpiredTime: Number(m.sessionWebhookExpiredTime ?? 0),
    conversationId: m.conversationId,
    conversationType: isGroup ? "2" : "1",
    robotCode: m.robotCode ?? "",
    senderStaffId: m.senderStaffId ?? "",
  };
  return {
    externalId: m.msgId,
    sender: { id: senderId, name: m.senderNick ?? "" },
    conversation: isGroup
      ? { kind: "group", id: m.conversationId, name: m.conversationTitle ?? "" }
      : { kind: "contact", id: senderId, name: m.senderNick ?? "" },
    text,
    // In a one-to-one chat every message is addressed to the robot.
    mentionedBot: isGroup ? m.isInAtList === true : true,
    receivedAt: typeof m.createAt === "number" && m.createAt > 0 ? new Date(m.createAt) : now,
    replyContext,
  };
}

/** The reply context back from the queue (JSON), or null when it is not one of ours. */
export function readReplyContext(raw: unknown): TDingtalkReplyContext | null {
  if (!raw || typeof raw !== "object") return null;
  const c = raw as Partial<TDingtalkReplyContext>;
  if (typeof c.conversationId !== "string" || (c.conversationType !== "1" && c.conversationType !== "2")) return null;
  return {
    sessionWebhook: typeof c.sessionWebhook === "string" ? c.sessionWebhook : "",
    sessionWebhookExpiredTime: Number(c.sessionWebhookExpiredTime ?? 0),
    conversationId: c.conversationId,
    conversationType: c.conversationType,
    robotCode: typeof c.robotCode === "string" ? c.robotCode : "",
    senderStaffId: typeof c.senderStaffId === "string" ? c.senderStaffId : "",
  };
}
