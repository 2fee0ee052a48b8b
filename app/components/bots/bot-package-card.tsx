// The bot package (priced per year) and what the owner can do with the bot as a whole: renew a
// year, pause or resume it, delete it. Before a deletion is confirmed it says whether it refunds:
// a bot that never came online, bought less than 24 hours ago, gets its package back.
import { DeleteOutlined, PauseCircleOutlined, PlayCircleOutlined } from "@ant-design/icons";
import { Button, Card, Space, Typography, type ButtonProps } from "antd";
import { App } from "antd";
import { useTranslation } from "react-i18next";
import { uiLocale } from "../../i18n/config";
import { useMutation } from "../../lib/use-mutation";
import { LocalDate } from "../ui/local-date";
import { BotRefusal, useBotRefusal } from "./bot-refusal";
import { formatMicro, type TBotView } from "./types";

type TProps = {
  bot: TBotView;
  priceMicro: number;
  busy: string | null;
  onRenew: () => Promise<unknown>;
  onToggle: () => Promise<unknown>;
  onDelete: () => Promise<unknown>;
};

export function BotPackageCard({ bot, priceMicro, busy, onRenew, onToggle, onDelete }: TProps) {
  const { t, i18n } = useTranslation("bots");
  const { modal } = App.useApp();
  const { refusal, take, clear } = useBotRefusal();
  const attempt = useMutation((run: () => Promise<unknown>) => run(), { onError: (err) => take(err) });
  const price = formatMicro(priceMicro);
  const refund = bot.refund_on_delete;
  const refundVars = refund ? { amount: formatMicro(refund.amount_micro), until: new Date(refund.until).toLocaleString(uiLocale(i18n.language)) } : null;
  // No refund: either a platform has seen the bot, or its first day is over.
  const late = Date.now() - new Date(bot.created_at).getTime() >= 24 * 3_600_000;
  const refundText = refundVars ? t("package.delete_refund", refundVars) : late ? t("package.delete_no_refund_late") : t("package.delete_no_refund_online");
  // A refusal the owner can act on (recharge) stays on the card; others are a toast.
  const guarded = (run: () => Promise<unknown>) => async () => {
    clear();
    await attempt.run(run);
  };
  const confirmRenew = () =>
    modal.confirm({
      title: t("package.renew_confirm_title"),
      content: t("package.renew_confirm", { price }),
      okText: t("package.renew_ok", { price }),
      okButtonProps: { "data-testid": "bot-renew-ok" } as ButtonProps,
      onOk: guarded(onRenew),
    });
  const confirmDelete = () =>
    modal.confirm({
      title: t("package.delete_confirm_title", { name: bot.name }),
      content: (
        <>
          <p>{t("package.delete_confirm")}</p>
          <p data-testid="bot-delete-refund" data-refund={refund ? "yes" : "no"}>
            <strong>{refundText}</strong>
          </p>
        </>
      ),
      okText: refundVars ? t("package.delete_refund_ok", refundVars) : t("package.delete"),
      okButtonProps: { danger: true, "data-testid": "bot-delete-ok" } as ButtonProps,
      onOk: guarded(onDelete),
    });

  return (
    <Card title={t("package.title")} className="bots-section" data-testid="bot-package">
      <Typography.Paragraph>
        <span className={bot.package_expired ? "bots-expired" : undefined} data-testid="bot-package-until">
          {bot.package_expired ? t("package.expired_on") : t("package.until")} <LocalDate iso={bot.paid_until} />
        </span>
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" className="bots-note">
        {t("package.hint", { price })}
      </Typography.Paragraph>
      {refundVars && (
        <Typography.Paragraph type="secondary" className="bots-note" data-testid="bot-refund-window">
          {t("package.refund_window", refundVars)}
        </Typography.Paragraph>
      )}
      <BotRefusal refusal={refusal} onClose={clear} />
      <Space wrap>
        <Button type="primary" loading={busy === "renew"} onClick={confirmRenew} data-testid="bot-renew">
          {t("package.renew", { price })}
        </Button>
        <Button
          icon={bot.enabled ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
          loading={busy === "toggle"}
          onClick={() => void guarded(onToggle)()}
          data-testid="bot-toggle"
          data-enabled={bot.enabled}
        >
          {bot.enabled ? t("package.pause") : t("package.resume")}
        </Button>
        <Button danger icon={<DeleteOutlined />} loading={busy === "delete"} onClick={confirmDelete} data-testid="bot-delete">
          {t("package.delete")}
        </Button>
      </Space>
    </Card>
  );
}
