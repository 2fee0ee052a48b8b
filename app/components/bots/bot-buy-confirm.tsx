// The step between the create form and the charge: what the bot package costs and buys, the
// balance it is paid from, the refund rule, and when the balance is short, a top-up first (the
// recharge dialog; nothing is charged until the owner confirms here).
import { Alert, Button, Descriptions, Modal, Typography, type ButtonProps } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TBotChannel } from "../../../server/bots/bots.schema";
import { getWalletView } from "../money/recharge-api";
import { RechargeDialog } from "../money/recharge-dialog";
import { formatMicro, type TBotQuote } from "./types";

type TProps = {
  open: boolean;
  quote: TBotQuote;
  name: string;
  channel: TBotChannel;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** Before the top-up may leave the page (the sandbox's cashier): keep what the form holds. */
  onTopUp: () => void;
};

const toMicro = (yuan: number) => Math.round(yuan * 1_000_000);

export function BotBuyConfirm({ open, quote, name, channel, busy, onConfirm, onCancel, onTopUp }: TProps) {
  const { t } = useTranslation("bots");
  const [balance, setBalance] = useState(quote.balance_micro);
  const [recharging, setRecharging] = useState(false);
  // The balance as it is now: a top-up in another tab, or a purchase, may have changed it.
  useEffect(() => {
    if (open)
      void getWalletView().then(
        (w) => setBalance(toMicro(w.available)),
        () => undefined,
      );
  }, [open]);

  const price = quote.price_year_micro;
  const short = Math.max(0, price - balance);
  const vars = { name, price: formatMicro(price), days: quote.package_days, platform: t(`channel.${channel}`) };
  return (
    <>
      <Modal
        open={open}
        title={t("confirm.title", vars)}
        onCancel={onCancel}
        onOk={onConfirm}
        okText={t("confirm.ok", vars)}
        cancelText={t("confirm.cancel")}
        confirmLoading={busy}
        okButtonProps={{ disabled: short > 0, "data-testid": "bot-buy-ok" } as ButtonProps}
        cancelButtonProps={{ "data-testid": "bot-buy-cancel" } as ButtonProps}
        destroyOnHidden
        data-testid="bot-buy-confirm"
      >
        <Descriptions column={1} size="small" className="bots-buy__facts">
          <Descriptions.Item label={t("confirm.price_label")}>
            <strong data-testid="bot-buy-price">{t("confirm.price", vars)}</strong>
          </Descriptions.Item>
          <Descriptions.Item label={t("confirm.buys_label")}>{t("confirm.buys", vars)}</Descriptions.Item>
          <Descriptions.Item label={t("confirm.balance_label")}>
            <div className="bots-buy__balance">
              <span data-testid="bot-buy-balance" data-balance={balance}>
                {t("confirm.balance", { amount: formatMicro(balance) })}
              </span>
              {short === 0 && <Typography.Text type="secondary">{t("confirm.after", { amount: formatMicro(balance - price) })}</Typography.Text>}
            </div>
          </Descriptions.Item>
        </Descriptions>
        <Typography.Paragraph type="secondary" className="bots-buy__refund" data-testid="bot-buy-refund">
          {t("confirm.refund", vars)}
        </Typography.Paragraph>
        {short > 0 && (
          <Alert
            type="warning"
            showIcon
            data-testid="bot-buy-short"
            title={t("confirm.short_title", { short: formatMicro(short) })}
            description={t("confirm.short")}
            action={
              <Button
                type="primary"
                size="small"
                onClick={() => {
                  onTopUp();
                  setRecharging(true);
                }}
                data-testid="bot-buy-topup"
              >
                {t("confirm.topup")}
              </Button>
            }
          />
        )}
      </Modal>
      <RechargeDialog
        open={recharging}
        onClose={() => setRecharging(false)}
        initialAmount={Math.ceil(short / 1_000_000) || undefined}
        onPaid={(available) => setBalance(toMicro(available))}
      />
    </>
  );
}
