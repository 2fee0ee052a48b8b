// A platform's mark and name: the bot list, the create form's platform cards, the bot page.
import { DingtalkOutlined, SendOutlined, WechatOutlined, WechatWorkOutlined } from "@ant-design/icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TBotChannel } from "../../../server/bots/bots.schema";

const MARKS: Record<TBotChannel, { icon: ReactNode; color: string }> = {
  wechat: { icon: <WechatOutlined />, color: "#07c160" },
  wecom: { icon: <WechatWorkOutlined />, color: "#0082ef" },
  dingtalk: { icon: <DingtalkOutlined />, color: "#007fff" },
  // antd has no Feishu mark: a paper plane in Feishu's blue.
  feishu: { icon: <SendOutlined />, color: "#3370ff" },
};

export function PlatformIcon({ channel, size = 28 }: { channel: TBotChannel; size?: number }) {
  const mark = MARKS[channel];
  return (
    <span className="bots-platform-icon" style={{ background: mark.color, width: size, height: size, fontSize: Math.round(size * 0.6) }} aria-hidden>
      {mark.icon}
    </span>
  );
}

export function PlatformBadge({ channel }: { channel: TBotChannel }) {
  const { t } = useTranslation("bots");
  return (
    <span className="bots-platform" data-testid="bot-platform" data-channel={channel}>
      <PlatformIcon channel={channel} size={20} />
      <span>{t(`channel.${channel}`)}</span>
    </span>
  );
}
