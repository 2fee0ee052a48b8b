// The payment step of an order made for an edition or a paid registration: WeChat's code as a QR
// code, Alipay's cashier link, or off to the sandbox's cashier page (which sends the payer back
// here; `claim` lets a paid registration's payer in, `onLeave` keeps what the page needs on return);
// it polls until the order settles.
import { LoadingOutlined } from "@ant-design/icons";
import { Alert, Button, Space, Spin } from "antd";
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { cameBackWith, cashierUrl, goToCashier } from "../money/cashier-return";
import { formatYuan } from "../../../server/money/money-format";

export type TOrderState = { id: string; provider: string; amount: number; state: "pending" | "paid" | "failed" | "cancelled"; pay_url: string | null };

type TProps = {
  order: TOrderState;
  poll: () => Promise<TOrderState>;
  onSettled: (o: TOrderState) => void;
  everyMs?: number;
  claim?: string;
  onLeave?: () => void;
};

export function OrderPayment({ order, poll, onSettled, everyMs = 2000, claim, onLeave }: TProps) {
  const { t } = useTranslation(["editions", "errors"]);
  const [qr, setQr] = useState<string | null>(null);
  const [current, setCurrent] = useState(order);

  const toCashier = order.provider === "sandbox" && order.state === "pending" && order.pay_url && !cameBackWith(order.id) ? order.pay_url : null;
  useEffect(() => {
    if (!toCashier) return;
    onLeave?.();
    goToCashier(toCashier, { claim });
  }, [toCashier, claim, onLeave]);

  useEffect(() => {
    if (order.provider === "wechat" && order.pay_url) void QRCode.toDataURL(order.pay_url, { margin: 1, width: 200 }).then(setQr);
  }, [order.provider, order.pay_url]);

  useEffect(() => {
    if (current.state !== "pending") return;
    let stop = false;
    const timer = setInterval(() => {
      poll().then(
        (o) => {
          if (stop) return;
          setCurrent(o);
          if (o.state !== "pending") onSettled(o);
        },
        () => undefined,
      );
    }, everyMs);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [current.state, poll, onSettled, everyMs]);

  if (current.state === "failed" || current.state === "cancelled")
    return <Alert type="error" showIcon title={t("payment_failed", { ns: "errors" })} data-testid="order-failed" />;
  if (current.state === "paid") return <Alert type="success" showIcon title={t("payment.paid")} data-testid="order-paid" />;
  return (
    <Space direction="vertical" align="center" style={{ width: "100%" }} data-testid="order-payment" data-order-id={order.id}>
      <strong>{t("payment.title", { amount: formatYuan(order.amount) })}</strong>
      {order.provider === "wechat" && (qr ? <img src={qr} alt={t("payment.scan")} width={200} height={200} data-testid="order-qr" /> : <Spin />)}
      {order.provider === "wechat" && <span>{t("payment.scan")}</span>}
      {order.provider === "alipay" && order.pay_url && (
        <Button type="primary" href={order.pay_url} target="_blank" rel="noopener" data-testid="order-open">
          {t("payment.open")}
        </Button>
      )}
      {order.provider === "sandbox" && <Alert type="warning" showIcon title={t("payment.sandbox")} data-testid="order-sandbox" />}
      {order.provider === "sandbox" && order.pay_url && (
        <Button type="primary" href={cashierUrl(order.pay_url, { claim })} onClick={() => onLeave?.()} data-testid="order-sandbox-link">
          {t("payment.sandbox_open")}
        </Button>
      )}
      <span className="app-form__muted">
        <LoadingOutlined /> {t("payment.waiting")}
      </span>
    </Space>
  );
}
