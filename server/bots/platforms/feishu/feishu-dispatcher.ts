// The SDK's EventDispatcher with the events a bot answers, for both connection modes: the long
// connection invokes it for each pushed event, the webhook route for each verified callback.
import * as lark from "@larksuiteoapi/node-sdk";
import type { TGreetingTrigger, TInboundMessage } from "../../../../bot-gateway/core/channel";
import { sdkLogger } from "./feishu-api";
import { FEISHU_EVENT, toGreetingTrigger, toInboundMessage, type TFeishuChatEvent, type TFeishuMessageEvent } from "./feishu-events";

export type TFeishuEventSink = {
  botOpenId(): Promise<string | null>;
  onMessage(message: TInboundMessage): Promise<void> | void;
  onGreeting(trigger: TGreetingTrigger): Promise<void> | void;
};

/**
 * A dispatcher whose handlers turn events into the sink's calls. It checks nothing itself: the
 * long connection is authenticated by its ticket, and the webhook route verifies the token and
 * signature before invoking it.
 */
export function createFeishuDispatcher(sink: TFeishuEventSink): lark.EventDispatcher {
  const greet = (type: string) => async (data: TFeishuChatEvent) => {
    const trigger = toGreetingTrigger(type, data);
    if (trigger) await sink.onGreeting(trigger);
  };
  return new lark.EventDispatcher({ logger: sdkLogger, loggerLevel: lark.LoggerLevel.warn }).register({
    [FEISHU_EVENT.message]: async (data: TFeishuMessageEvent) => {
      const message = toInboundMessage(data, await sink.botOpenId());
      if (message) await sink.onMessage(message);
    },
    [FEISHU_EVENT.userAdded]: greet(FEISHU_EVENT.userAdded),
    [FEISHU_EVENT.botAdded]: greet(FEISHU_EVENT.botAdded),
    [FEISHU_EVENT.p2pEntered]: greet(FEISHU_EVENT.p2pEntered),
  });
}
