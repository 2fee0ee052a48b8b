// Buying, renewing or upgrading one edition: the price breakdown (fee, credit, prepaid, total),
// then paying from the balance (one request id per dialog, so a double click buys once) or
// through a payment order shown with OrderPayment.
import { Alert, Descriptions, Modal, Radio, Space } from "antd";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import type { TMembershipView, TQuoteView } from "../../../server/money/editions/editions.service";
import { OrderPayment, type TOrderState } from "./order-payment";
import { yuan } from "./membership-summary";
import { formatZBalance } from "../../../server/money/money-format";
import { uiLocale } from "../../i18n/config";

type TProps = { quote: TQuoteView; membership: TMembershipView; providers: string[]; onClose: () => void; onDone: (message: string) => void };

export function EditionBuyDialog({ quote, membership, providers, onClose, onDone }: TProps) {
  const { t, i18n } = useTranslation(["editions", "common"]);
  const requestId = useMemo(() => crypto.randomUUID(), []);
  const [pay, setPay] = useState<string>("balance");
  const [order, setOrder] = useState<TOrderState | null>(null);
  const editionName = t(`editions.${quote.edition}`, { ns: "common" });
  const date = (iso: string) => new Date(iso).toLocaleDateString(uiLocale(i18n.language));

  const buy = useMutation(
    async () => {
      const body = { edition: quote.edition, days: quote.days };
      if (pay === "balance") {
        const r = await apiRequest<{ expires_at: string }>("/api/v1/editions/buy", { body: { ...body, request_id: requestId } });
        onDone(t("done.bought", { edition: editionName, date: date(r.expires_at) }));
      } else {
        setOrder(await apiRequest<TOrderState>("/api/v1/editions/order", { body: { ...body, provider: pay } }));
      }
    },
    { report: "inline" },
  );
  const { error } = buy;
  const poll = useCallback(() => apiRequest<TOrderState>(`/api/v1/pay/orders/${encodeURIComponent(order!.id)}`), [order]);
  const settled = useCallback((o: TOrderState) => o.state === "paid" && onDone(t("done.order_paid")), [onDone, t]);

  return (
    <Modal
      open
      title={t("confirm.title", { action: t(`actions.${quote.kind}`), edition: editionName, days: quote.days })}
      onCancel={onClose}
      onOk={order ? onClose : () => void buy.run()}
      okText={order ? t("payment.close") : t("confirm.submit", { amount: yuan(quote.total) })}
      cancelText={t("confirm.cancel")}
      confirmLoading={buy.busy}
      okButtonProps={{ "data-testid": "buy-confirm" } as Record<string, string>}
      destroyOnHidden
      data-testid="buy-dialog"
    >
      {order ? (
        <OrderPayment order={order} poll={poll} onSettled={settled} />
      ) : (
        <Space direction="vertical" style={{ width: "100%" }}>
          <Descriptions column={1} size="small" bordered data-testid="buy-breakdown">
            <Descriptions.Item label={t("confirm.fee")}>¥{yuan(quote.fee)}</Descriptions.Item>
            {quote.credit > 0 && <Descriptions.Item label={t("confirm.credit", { count: quote.unused_days })}>−¥{yuan(quote.credit)}</Descriptions.Item>}
            {quote.credit > 0 && <Descriptions.Item label={t("confirm.charge")}>¥{yuan(quote.charge)}</Descriptions.Item>}
            <Descriptions.Item label={t("confirm.prepaid")}>¥{yuan(quote.prepaid)}</Descriptions.Item>
            <Descriptions.Item label={t("confirm.total")}>
              <strong data-testid="buy-total">¥{yuan(quote.total)}</strong>
            </Descriptions.Item>
            {quote.expires_at && <Descriptions.Item label={t("confirm.expires")}>{date(quote.expires_at)}</Descriptions.Item>}
          </Descriptions>
          <div>{t("confirm.pay_with")}</div>
          <Radio.Group value={pay} onChange={(e) => setPay(e.target.value)} data-testid="buy-pay-with">
            <Space direction="vertical">
              <Radio value="balance" data-testid="pay-balance">
                {t("confirm.balance")}{" "}
                <span className="app-form__muted">
                  ({t("confirm.balance_hint", { coins: formatZBalance(membership.wallet.spendable), gift: formatZBalance(membership.wallet.gift) })})
                </span>
              </Radio>
              {providers.map((p) => (
                <Radio key={p} value={p} data-testid={`pay-${p}`}>
                  {t(`providers.${p}`)}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
          {error && <Alert type="error" showIcon title={error} data-testid="buy-error" />}
        </Space>
      )}
    </Modal>
  );
}
