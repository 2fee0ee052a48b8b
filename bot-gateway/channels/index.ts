// The channel factories by platform (one line per channel; see bot-gateway/core/channel.ts).
import type { TBotChannel } from "../../server/bots/bots.schema";
import type { TChannelFactory } from "../core/channel";
import { createDingtalkChannel } from "./dingtalk";
import { createFeishuChannel } from "./feishu";
import { createWechatChannel } from "./wechat";
import { createWecomChannel } from "./wecom";

export const CHANNEL_FACTORIES: Partial<Record<TBotChannel, TChannelFactory>> = {
  dingtalk: createDingtalkChannel,
  feishu: createFeishuChannel,
  wechat: createWechatChannel,
  wecom: createWecomChannel,
};
