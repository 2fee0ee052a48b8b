import { ApiOutlined, DingtalkOutlined, GlobalOutlined, SendOutlined, WechatOutlined, WechatWorkOutlined } from "@ant-design/icons";
import type { ReactNode } from "react";

/** Where an agent can be published; names are in the "home" namespace under channels.*. */
export const CHANNELS: readonly { key: string; icon: ReactNode }[] = [
  { key: "h5", icon: <GlobalOutlined /> },
  { key: "api", icon: <ApiOutlined /> },
  { key: "wechat", icon: <WechatOutlined /> },
  { key: "wecom", icon: <WechatWorkOutlined /> },
  { key: "dingtalk", icon: <DingtalkOutlined /> },
  { key: "feishu", icon: <SendOutlined /> },
];
