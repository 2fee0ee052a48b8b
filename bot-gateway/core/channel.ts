// What every chat platform adapter implements (DESIGN 2). The channels themselves arrive with the
// bot gateway issue; the process and this contract exist from the start so deployments are stable.
export type TInboundMessage = {
  botId: string;
  conversationId: string;
  senderId: string;
  text: string;
  isGroup: boolean;
  mentionedBot: boolean;
  receivedAt: Date;
};

export type TOutboundMessage = { conversationId: string; text: string; markdown?: boolean };

export type TChannelHealth = { state: "deploying" | "to_be_associated" | "online" | "offline" | "expired"; detail?: string };

export interface Channel {
  readonly kind: "wechat" | "wecom" | "dingtalk" | "feishu";
  connect(): Promise<void>;
  onMessage(handler: (message: TInboundMessage) => Promise<void>): void;
  send(message: TOutboundMessage): Promise<void>;
  health(): Promise<TChannelHealth>;
  disconnect(): Promise<void>;
}
