// The sandbox cashier as the payer sees it: a banner that no real money moves, what the order buys,
// its amount and number, and Pay / Cancel. The decision goes to the server (which notifies itself
// as the sandbox, through the providers' notify route); the page then sends the payer back.
import { ExperimentOutlined } from "@ant-design/icons";
import { Alert, Button, Descriptions, Result, Tag } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import type { TCashierOrderView } from "../../../server/money/payments/sandbox-cashier.service";
import { LocalDate } from "../ui/local-date";
import { returnHref } from "./cashier-return";
import { formatYuan } from "../../../server/money/money-format";

const BACK_AFTER_MS = 1500;

function useItemText(order: TCashierOrderView) {
  const { t } = useTranslation(["payments", "common"]);
  if (order.purpose === "edition" && order.item.edition)
    return t("cashier.item.edition", {
      edition: t(`editions.${order.item.edition}`, { ns: "common", defaultValue: order.item.edition }),
      count: order.item.days ?? 0,
    });
  if (order.purpose === "registration") return t("cashier.item.registration", { account: order.item.account ?? "" });
  return t("cashier.item.topup", { amount: formatYuan(order.amount) });
}

export function SandboxCashier({ order: initial, claim, returnTo }: { order: TCashierOrderView; claim: string | null; returnTo: string }) {
  const { t } = useTranslation("payments");
  const [order, setOrder] = useState(initial);
  const [decided, setDecided] = useState(false);
  const back = returnHref(returnTo, order.id);
  const item = useItemText(order);

  // Once the payer decided here, they go back to where the order was made.
  useEffect(() => {
    if (!decided) return;
    const timer = window.setTimeout(() => window.location.assign(back), BACK_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [decided, back]);

  const {
    run: act,
    busyKey: busy,
    error,
  } = useMutation(
    async (action: "pay" | "cancel") => {
      setOrder(
        await apiRequest<TCashierOrderView>(`/api/v1/pay/sandbox/orders/${encodeURIComponent(order.id)}/${action}`, {
          method: "POST",
          body: claim ? { claim } : {},
        }),
      );
      setDecided(true);
    },
    { report: "inline" },
  );

  const amount = formatYuan(order.amount);
  const backButton = (
    <Button type="primary" href={back} data-testid="cashier-back">
      {t("cashier.back")}
    </Button>
  );

  return (
    <main className="cashier" data-testid="cashier" data-order-id={order.id} data-state={order.state}>
      <div className="cashier__card">
        <header className="cashier__head">
          <span className="cashier__brand">
            <ExperimentOutlined /> {t("cashier.title")}
          </span>
          <Tag color="orange">{t("cashier.tag")}</Tag>
        </header>
        <Alert type="warning" showIcon title={t("cashier.banner")} description={t("cashier.banner_detail")} data-testid="cashier-banner" />
        {order.state === "paid" && (
          <Result
            status="success"
            title={t("cashier.paid", { amount })}
            subTitle={decided ? t("cashier.returning") : undefined}
            extra={backButton}
            data-testid="cashier-paid"
          />
        )}
        {(order.state === "failed" || order.state === "cancelled") && (
          <Result
            status="info"
            title={t("cashier.closed")}
            subTitle={decided ? t("cashier.returning") : undefined}
            extra={backButton}
            data-testid="cashier-closed"
          />
        )}
        {order.state === "pending" && (
          <>
            <div className="cashier__amount" data-testid="cashier-amount">
              <span className="cashier__currency">¥</span>
              {amount}
            </div>
            <Descriptions column={1} size="small" className="cashier__details">
              <Descriptions.Item label={t("cashier.item_label")}>
                <span data-testid="cashier-item">{item}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t("cashier.order_label")}>
                <code className="cashier__order-no" data-testid="cashier-order-no">
                  {order.id}
                </code>
              </Descriptions.Item>
              <Descriptions.Item label={t("cashier.created_label")}>
                <LocalDate iso={order.created_at} withTime />
              </Descriptions.Item>
            </Descriptions>
            {error && <Alert type="error" showIcon title={error} data-testid="cashier-error" />}
            <div className="cashier__actions">
              <Button
                type="primary"
                size="large"
                block
                loading={busy === "pay"}
                disabled={busy === "cancel"}
                onClick={() => void act("pay")}
                data-testid="cashier-pay"
              >
                {t("cashier.pay", { amount })}
              </Button>
              <Button size="large" block loading={busy === "cancel"} disabled={busy === "pay"} onClick={() => void act("cancel")} data-testid="cashier-cancel">
                {t("cashier.cancel")}
              </Button>
            </div>
          </>
        )}
        <p className="cashier__foot">{t("cashier.foot")}</p>
      </div>
    </main>
  );
}
