// What every chat platform adapter implements. A channel holds one bot's connection
// (or, for webhook platforms, its API client); the gateway core owns everything else: which
// instance holds which bot (leases), turning a message into an agent run (dispatcher), greetings
// and scheduled sends (scheduler). Channels never touch the database.
import type { TBotChannel } from "../../server/bots/bots.schema";
import type { TTurnMedia } from "../../server/turns/sink";

/** A contact or a group the bot can send to, by the platform's id. */
export type TTarget = { kind: "contact" | "group"; id: string; name?: string };

export type TInboundMessage = {
  /** The platform's message id: redeliveries carry the same one (one message, one answer). */
  externalId: string;
  /** Who wrote: the platform's user id and display name. */
  sender: { id: string; name: string };
  /** Where to answer: the contact itself, or the group. */
  conversation: TTarget;
  /** The text with the bot's mention removed. */
  text: string;
  mentionedBot: boolean;
  receivedAt: Date;
  /** Whatever the channel needs to answer this message (DingTalk's session webhook, Feishu's message id...). */
  replyContext?: unknown;
};

/** Someone added the bot, or joined a group the bot is in: the greeting goes to `target`. */
export type TGreetingTrigger = { externalId: string; target: TTarget; who: { id: string; name: string } };

export type TChannelHealth = {
  state: "deploying" | "to_be_associated" | "online" | "offline" | "expired";
  /** Why (an i18n key under bots:detail, e.g. "detail.login_lapsed"), or the platform's words. */
  detail?: string;
  /** Personal WeChat: the login QR code's content while waiting for a scan. */
  loginQr?: string | null;
  /** Who the bot is logged in as (personal WeChat), when known. */
  loginName?: string | null;
};

/**
 * An answer as the agent wrote it (markdown; the channel renders or flattens it and splits it to its
 * limits), then the pictures and videos it is made of, which the channel sends as the platform's own
 * picture and video messages (bot-gateway/core/reply-media.ts), or as links when it cannot.
 */
export type TOutbound = { text: string; media?: TTurnMedia[] };

/** A reply that grows while the agent streams (DingTalk AI cards, Feishu card updates). */
export interface StreamingReply {
  /** The whole answer so far; the channel throttles its own updates. */
  update(text: string): Promise<void>;
  /** The final answer (or the polite error); the card stops streaming. */
  finish(text: string): Promise<void>;
}

/** What the gateway core gives a channel when it connects. */
export type TChannelHooks = {
  onMessage(message: TInboundMessage): Promise<void>;
  onGreeting(trigger: TGreetingTrigger): Promise<void>;
  /** The connection changed state (QR shown, logged in, logged out, reconnecting...). */
  onHealth(health: TChannelHealth): void;
};

export interface Channel {
  readonly kind: TBotChannel;
  /** Opens the connection (or, for webhook channels, checks the credentials) and starts delivering to `hooks`. */
  connect(hooks: TChannelHooks): Promise<void>;
  /** Answers an inbound message where it came from. */
  reply(to: TInboundMessage, out: TOutbound): Promise<void>;
  /** Sends on the bot's own initiative (greetings, scheduled messages). */
  send(target: TTarget, out: TOutbound): Promise<void>;
  /** When the platform can update a card while the agent streams; null when it cannot (or is not set up to). */
  startStreamingReply?(to: TInboundMessage): Promise<StreamingReply | null>;
  health(): TChannelHealth;
  disconnect(): Promise<void>;
}

/** Everything a channel is built from: the bot's id and its opened credentials. */
export type TChannelSpec = {
  botId: string;
  name: string;
  credentials: Record<string, unknown>;
  /** The owner asked to log in again: forget any saved session (personal WeChat shows a new QR). */
  freshLogin?: boolean;
};

export type TChannelFactory = (spec: TChannelSpec) => Channel;
