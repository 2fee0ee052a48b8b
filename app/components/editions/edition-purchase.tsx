// The editions as cards with this account's price for the chosen term and the buy / renew /
// upgrade button, and the dialog that pays. /upgrade and /mobi/upgrade both use it. A payer back
// from the sandbox's cashier with an edition order is told how it went.
import { useRevalidator } from "@remix-run/react";
import { App, Button, Segmented, Space, Tooltip, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TMembershipView, TQuoteView } from "../../../server/money/editions/editions.service";
import { EditionCards } from "../site/edition-plans";
import { useReturnedOrder } from "../money/cashier-return";
import { EditionBuyDialog } from "./edition-buy-dialog";
import { yuan } from "./membership-summary";

export function EditionPurchase({ membership, providers }: { membership: TMembershipView; providers: string[] }) {
  const { t } = useTranslation("editions");
  const { message } = App.useApp();
  const revalidator = useRevalidator();
  const [days, setDays] = useState<30 | 365>(365);
  const [buying, setBuying] = useState<TQuoteView | null>(null);
  const returned = useReturnedOrder("edition");
  useEffect(() => {
    if (!returned || returned.state === "pending") return;
    if (returned.state === "paid") void message.success(t("done.order_paid"));
    else void message.error(t("payment_failed", { ns: "errors" }));
    revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per order the payer came back with
  }, [returned]);
  const quoteOf = (edition: string) => membership.quotes.find((q) => q.edition === edition && q.days === days);

  const footer = (e: { key: string }) => {
    if (e.key === "basic")
      return membership.edition === "basic" ? (
        <Button block disabled>
          {t("actions.current")}
        </Button>
      ) : null;
    const q = quoteOf(e.key);
    if (!q) return null;
    const price = (
      <Typography.Text type="secondary" style={{ display: "block", marginBottom: 8 }}>
        {days === 365 ? t("per_year") : t("term_price", { days, fee: yuan(q.fee) })}
      </Typography.Text>
    );
    if (q.refused) {
      return (
        <>
          {price}
          <Tooltip title={t(`refusals.${q.refused}`)}>
            <Button block disabled data-testid={`buy-${e.key}`} data-refused={q.refused}>
              {t("actions.upgrade")}
            </Button>
          </Tooltip>
        </>
      );
    }
    return (
      <>
        {price}
        <Button block type={q.kind === "renew" ? "default" : "primary"} onClick={() => setBuying(q)} data-testid={`buy-${e.key}`} data-kind={q.kind}>
          {t(`actions.${q.kind}`)} · ¥{yuan(q.total)}
        </Button>
      </>
    );
  };

  return (
    <div data-testid="edition-purchase">
      <Space style={{ marginBottom: 16 }}>
        <span>{t("term.label")}</span>
        <Segmented<30 | 365>
          value={days}
          onChange={setDays}
          options={[30, 365].map((d) => ({ value: d as 30 | 365, label: <span data-testid={`term-${d}`}>{t("term.days", { count: d })}</span> }))}
        />
      </Space>
      <EditionCards footer={footer} />
      {buying && (
        <EditionBuyDialog
          quote={buying}
          membership={membership}
          providers={providers}
          onClose={() => setBuying(null)}
          onDone={(text) => {
            setBuying(null);
            void message.success(text);
            revalidator.revalidate();
          }}
        />
      )}
    </div>
  );
}
