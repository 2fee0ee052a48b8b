// The console header's balance with a "Recharge" button that opens the recharge dialog. The
// balance follows top-ups here and WALLET_CHANGED_EVENT from other parts of the console. A payer
// back from the sandbox's cashier with a top-up finds the dialog open on its result.
import { WalletOutlined } from "@ant-design/icons";
import { Button, Space, Tooltip, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TWalletView } from "../../../server/money/payments/payments.schema";
import { useResumedTopup } from "./cashier-return";
import { formatCoins, getWalletView, WALLET_CHANGED_EVENT } from "./recharge-api";
import { RechargeDialog } from "./recharge-dialog";

export function RechargeWalletButton({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation("payments");
  const [wallet, setWallet] = useState<TWalletView | null>(null);
  const [open, setOpen] = useState(false);
  const refresh = useCallback(() => void getWalletView().then(setWallet, () => undefined), []);
  const { resume, clear } = useResumedTopup();

  useEffect(() => {
    refresh();
    window.addEventListener(WALLET_CHANGED_EVENT, refresh);
    return () => window.removeEventListener(WALLET_CHANGED_EVENT, refresh);
  }, [refresh]);

  const close = () => {
    setOpen(false);
    clear();
  };
  const dialog = <RechargeDialog open={open || Boolean(resume)} onClose={close} onPaid={refresh} resumeOrder={resume} />;
  // Phones: one small button, the balance on it; it opens the same dialog. On /mobi it is the only
  // one; on a narrow window of a desktop path the stylesheet swaps it for the full one (both are
  // rendered so the server's HTML already fits a phone, without a flash after hydration).
  const small = (testIds: boolean) => (
    <Button
      size="small"
      className="console__wallet-compact"
      icon={<WalletOutlined />}
      onClick={() => setOpen(true)}
      aria-label={t("wallet.recharge")}
      data-testid={testIds ? "recharge-open" : "recharge-open-narrow"}
      style={{ whiteSpace: "nowrap" }}
    >
      <span data-testid={testIds ? "wallet-balance" : undefined} data-available={wallet?.available ?? ""}>
        {wallet ? formatCoins(wallet.available) : ""}
      </span>
    </Button>
  );
  if (compact)
    return (
      <>
        {small(true)}
        {dialog}
      </>
    );
  return (
    <>
      <Space size={4} className="console__wallet" style={{ whiteSpace: "nowrap" }}>
        {wallet && (
          <Tooltip title={t("wallet.detail", { spendable: formatCoins(wallet.spendable), gift: formatCoins(wallet.gift) })}>
            <Typography.Text data-testid="wallet-balance" data-available={wallet.available}>
              <WalletOutlined /> {t("wallet.balance", { amount: formatCoins(wallet.available) })}
            </Typography.Text>
          </Tooltip>
        )}
        <Button size="small" type="primary" ghost onClick={() => setOpen(true)} data-testid="recharge-open">
          {t("wallet.recharge")}
        </Button>
      </Space>
      <span className="console__wallet-narrow">{small(false)}</span>
      {dialog}
    </>
  );
}
