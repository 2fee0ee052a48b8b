// The bot's connection: its state with the reason and since when; for personal WeChat the login QR
// code while it waits for a scan (and "log in again"), for webhook platforms the callback URL to
// paste in the platform's console.
import { CopyOutlined, ReloadOutlined } from "@ant-design/icons";
import { App, Button, Card, Input, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { copyText } from "../../lib/clipboard";
import { LocalDate } from "../ui/local-date";
import { BotStateDetail, BotStateTag } from "./bot-state-tag";
import type { TBotView } from "./types";
import { WechatLoginQr } from "./wechat-login-qr";

export function BotStatusCard({ bot, origin, busy, onRelogin }: { bot: TBotView; origin: string; busy: boolean; onRelogin: () => void }) {
  const { t } = useTranslation("bots");
  const { message } = App.useApp();
  const callbackUrl = bot.callback_path ? `${origin}${bot.callback_path}` : null;
  const waitingScan = bot.channel === "wechat" && bot.enabled && !bot.package_expired && (bot.state === "deploying" || bot.state === "to_be_associated");
  const copy = async (text: string) => ((await copyText(text)) ? message.success(t("status.copied")) : message.error(t("status.copy_failed")));

  return (
    <Card title={t("status.title")} className="bots-section" data-testid="bot-status">
      <Space direction="vertical" size={8} className="bots-block">
        <Space wrap size={8}>
          <BotStateTag state={bot.state} />
          <Typography.Text type="secondary">
            {t("status.since")} <LocalDate iso={bot.state_changed_at} withTime />
          </Typography.Text>
        </Space>
        <BotStateDetail detail={bot.state_detail} />
        <Typography.Paragraph className="bots-state-explain">
          {t(bot.enabled || bot.state === "expired" ? `state_explain.${bot.state}` : "state_explain.paused")}
        </Typography.Paragraph>
      </Space>
      {bot.channel === "wechat" && (
        <div className="bots-wechat">
          {waitingScan && (
            <div className="bots-wechat__scan">
              <WechatLoginQr content={bot.state === "to_be_associated" ? bot.login_qr : null} />
              <ol className="bots-wechat__steps">
                <li>{t("status.scan_step1")}</li>
                <li>{t("status.scan_step2")}</li>
                <li>{t("status.scan_step3")}</li>
              </ol>
            </div>
          )}
          {bot.login_name && bot.state === "online" && (
            <Typography.Paragraph data-testid="bot-login-name">{t("status.logged_in_as", { name: bot.login_name })}</Typography.Paragraph>
          )}
          <Button icon={<ReloadOutlined />} loading={busy} onClick={onRelogin} disabled={bot.package_expired || !bot.enabled} data-testid="bot-relogin">
            {t("status.relogin")}
          </Button>
          <Typography.Paragraph type="secondary" className="bots-note">
            {t("status.relogin_hint")}
          </Typography.Paragraph>
        </div>
      )}
      {callbackUrl && (
        <div className="bots-callback" data-testid="bot-callback">
          <Typography.Text strong>{t("status.callback_url")}</Typography.Text>
          <Typography.Paragraph type="secondary" className="bots-note">
            {t(`status.callback_hint.${bot.channel}`)}
          </Typography.Paragraph>
          <Space.Compact className="bots-copy">
            <Input value={callbackUrl} readOnly data-testid="bot-callback-url" onFocus={(e) => e.currentTarget.select()} />
            <Button icon={<CopyOutlined />} onClick={() => void copy(callbackUrl)} data-testid="bot-callback-copy">
              {t("status.copy")}
            </Button>
          </Space.Compact>
        </div>
      )}
    </Card>
  );
}
