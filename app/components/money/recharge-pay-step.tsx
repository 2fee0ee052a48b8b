// The second step of the recharge dialog: what the payer opens (WeChat's QR code, the Alipay
// cashier link, or the sandbox's cashier page, where this page sends them and which sends them
// back), polled until the order is settled.
import { Alert, Button, Result, Space, Spin, Typography } from "antd";
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TPaymentOrderView } from "../../../server/money/payments/payments.schema";
import { cameBackWith, cashierUrl, goToCashier } from "./cashier-return";
import { getOrder } from "./recharge-api";
import { formatYuan, formatZBalance, yuanToMicro } from "../../../server/money/money-format";

const POLL_MS = 2_000;

/** Polls the order until it is no longer pending; the server asks the provider now and then too. */
function usePolledOrder(initial: TPaymentOrderView) {
  const [order, setOrder] = useState(initial);
  useEffect(() => {
    if (order.state !== "pending") return;
    let stopped = false;
    const timer = window.setTimeout(async () => {
      // A failed poll (network) is simply tried again: a fresh object re-arms this effect.
      const next = await getOrder(order.id).catch(() => null);
      if (!stopped) setOrder(next ?? { ...order });
    }, POLL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [order]);
  return order;
}

export function RechargePayStep({
  initial,
  onSettled,
  onBack,
}: {
  initial: TPaymentOrderView;
  onSettled: (order: TPaymentOrderView) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation("payments");
  const order = usePolledOrder(initial);
  const [qr, setQr] = useState<string | null>(null);

  useEffect(() => {
    if (order.state !== "pending") onSettled(order);
  }, [order, onSettled]);
  // The sandbox's order is paid on its cashier page: off there at once, unless the payer just came back.
  const toCashier = order.provider === "sandbox" && order.state === "pending" && order.pay_url && !cameBackWith(order.id) ? order.pay_url : null;
  useEffect(() => {
    if (toCashier) goToCashier(toCashier);
  }, [toCashier]);
  useEffect(() => {
    if (order.provider === "wechat" && order.pay_url) void QRCode.toDataURL(order.pay_url, { errorCorrectionLevel: "M", margin: 2, width: 220 }).then(setQr);
  }, [order.provider, order.pay_url]);

  if (order.state !== "pending") return <Spin />;
  return (
    <Space direction="vertical" align="center" style={{ width: "100%" }} data-testid="recharge-pay" data-order-id={order.id} data-state={order.state}>
      {order.provider === "wechat" && (
        <>
          <Typography.Text strong>{t("recharge.scan", { amount: formatYuan(order.amount) })}</Typography.Text>
          {qr ? <img src={qr} width={220} height={220} alt={t("recharge.qr_alt")} data-testid="recharge-qr" data-code-url={order.pay_url ?? ""} /> : <Spin />}
        </>
      )}
      {order.provider === "alipay" && order.pay_url && (
        <>
          <Typography.Text strong>{t("recharge.open_alipay", { amount: formatYuan(order.amount) })}</Typography.Text>
          <Button type="primary" href={order.pay_url} target="_blank" rel="noreferrer" data-testid="recharge-alipay-link">
            {t("recharge.alipay_button")}
          </Button>
          <Typography.Text type="secondary">{t("recharge.alipay_hint")}</Typography.Text>
        </>
      )}
      {order.provider === "sandbox" && (
        <>
          <Alert type="warning" showIcon title={t("recharge.sandbox_opening", { amount: formatYuan(order.amount) })} data-testid="recharge-sandbox" />
          {order.pay_url && (
            <Button type="primary" href={cashierUrl(order.pay_url)} data-testid="recharge-sandbox-link">
              {t("recharge.sandbox_open")}
            </Button>
          )}
        </>
      )}
      <Space>
        <Spin size="small" />
        <Typography.Text type="secondary">{t("recharge.waiting")}</Typography.Text>
      </Space>
      <Button type="link" onClick={onBack} data-testid="recharge-back">
        {t("recharge.back")}
      </Button>
    </Space>
  );
}

export function RechargeResult({
  order,
  balance,
  onAgain,
  onClose,
}: {
  order: TPaymentOrderView;
  balance: number | null;
  onAgain: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("payments");
  const paid = order.state === "paid";
  return (
    <Result
      status={paid ? "success" : "error"}
      data-testid={paid ? "recharge-paid" : "recharge-failed"}
      title={paid ? t("recharge.paid", { amount: formatYuan(order.amount) }) : t(order.failure ?? "payment_failed", { ns: "errors" })}
      subTitle={
        paid && balance !== null ? (
          <span data-testid="recharge-new-balance">{t("recharge.new_balance", { amount: formatZBalance(yuanToMicro(balance)) })}</span>
        ) : undefined
      }
      extra={[
        <Button key="again" onClick={onAgain} data-testid="recharge-again">
          {t("recharge.again")}
        </Button>,
        <Button key="close" type="primary" onClick={onClose} data-testid="recharge-close">
          {t("recharge.close")}
        </Button>,
      ]}
    />
  );
}
