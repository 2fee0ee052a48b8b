// The payment step of an order made for an edition or a paid registration: WeChat's code as a QR
// code, Alipay's cashier link, or the development provider's note; it polls until the order settles.
import { LoadingOutlined } from "@ant-design/icons";
import { Alert, Button, Space, Spin } from "antd";
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

export type TOrderState = { id: string; provider: string; amount: number; state: "pending" | "paid" | "failed" | "cancelled"; pay_url: string | null };

export function OrderPayment({ order, poll, onSettled, everyMs = 2000 }: { order: TOrderState; poll: () => Promise<TOrderState>; onSettled: (o: TOrderState) => void; everyMs?: number }) {
  const { t } = useTranslation(["editions", "errors"]);
  const [qr, setQr] = useState<string | null>(null);
  const [current, setCurrent] = useState(order);

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

  if (current.state === "failed" || current.state === "cancelled") return <Alert type="error" showIcon title={t("payment_failed", { ns: "errors" })} data-testid="order-failed" />;
  if (current.state === "paid") return <Alert type="success" showIcon title={t("payment.paid")} data-testid="order-paid" />;
  return (
    <Space direction="vertical" align="center" style={{ width: "100%" }} data-testid="order-payment" data-order-id={order.id}>
      <strong>{t("payment.title", { amount: order.amount.toFixed(2) })}</strong>
      {order.provider === "wechat" && (qr ? <img src={qr} alt={t("payment.scan")} width={200} height={200} data-testid="order-qr" /> : <Spin />)}
      {order.provider === "wechat" && <span>{t("payment.scan")}</span>}
      {order.provider === "alipay" && order.pay_url && (
        <Button type="primary" href={order.pay_url} target="_blank" rel="noopener" data-testid="order-open">
          {t("payment.open")}
        </Button>
      )}
      {order.provider === "dev" && <Alert type="warning" showIcon title={t("payment.dev")} data-testid="order-dev" />}
      <span className="app-form__muted">
        <LoadingOutlined /> {t("payment.waiting")}
      </span>
    </Space>
  );
}
