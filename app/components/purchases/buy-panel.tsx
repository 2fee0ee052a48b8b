// /detail's buy panel (antd): an app's paid plans or an agent's buyout price with a Buy button,
// the viewer's balance with the console's recharge dialog (H1), sign-in for visitors, a confirm
// dialog (one request id per dialog, so a double click buys once).
import { ShoppingCartOutlined, WalletOutlined } from "@ant-design/icons";
import { App, Button, Space, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { useResumedTopup } from "../money/cashier-return";
import { RechargeDialog } from "../money/recharge-dialog";
import {
  BALANCE_INSUFFICIENT_STATUS,
  buyAgent,
  buyAppPlan,
  fetchOffer,
  formatZ,
  formatZBalance,
  newRequestId,
  type TOffer,
  type TOfferPlan,
} from "./purchase-api";
import { PlanText } from "./plan-text";
import "./buy-panel.css";

type TProps = { offer: TOffer; target: { appId: string } | { agentId: string } };

export function BuyPanel({ offer: initial, target }: TProps) {
  const { t } = useTranslation("purchases");
  const { modal, message } = App.useApp();
  const [offer, setOffer] = useState(initial);
  const [short, setShort] = useState(false);
  const [recharging, setRecharging] = useState(false);
  // Back from the sandbox's cashier with a top-up: its result, over the balance the page loaded with.
  const topup = useResumedTopup();

  const loginHref = typeof window === "undefined" ? "/login" : `/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`;

  const pay = useMutation(
    async (_id: string, run: () => Promise<unknown>) => {
      await run();
      message.success(t("done"));
      setShort(false);
      setOffer(await fetchOffer(target));
    },
    {
      onError: (err) => {
        setShort(err instanceof ApiError && err.status === BALANCE_INSUFFICIENT_STATUS);
        message.error((err as Error).message);
        return true;
      },
    },
  );
  const busy = pay.busyKey;

  const buy = (id: string, priceMicro: number, what: React.ReactNode, run: (requestId: string) => Promise<unknown>) => {
    const requestId = newRequestId();
    modal.confirm({
      title: t("confirm.title"),
      content: (
        <div data-testid="buy-confirm">
          <p>
            {t("confirm.body", { amount: formatZ(priceMicro) })} {what}
          </p>
          <p>
            <WalletOutlined /> {t("balance", { amount: formatZBalance(offer.balance_micro) })}
          </p>
        </div>
      ),
      okText: t("confirm.pay", { amount: formatZ(priceMicro) }),
      cancelText: t("confirm.back"),
      okButtonProps: { "data-testid": "buy-confirm-ok" } as never,
      onOk: () => pay.run(id, () => run(requestId)),
    });
  };

  const planButton = (p: TOfferPlan) =>
    offer.own ? null : !offer.signed_in ? null : (
      <Button
        type="primary"
        size="small"
        icon={<ShoppingCartOutlined />}
        loading={busy === p.id}
        onClick={() => "appId" in target && buy(p.id, p.price_micro, <PlanText plan={p} part="quantity" />, (rid) => buyAppPlan(target.appId, p.id, rid))}
        data-testid="buy-plan"
      >
        {t("detail.buy")}
      </Button>
    );

  const hasSomething = offer.kind === "app" ? offer.plans.length > 0 : offer.buyout_price_micro !== null;
  if (!hasSomething) return offer.kind === "agent" ? <p className="buy-muted">{t("detail.not_sold")}</p> : null;

  return (
    <div className="buy-panel" data-testid="buy-panel">
      <h2>{offer.kind === "app" ? t("detail.plans") : t("detail.buyout")}</h2>
      {offer.kind === "app" ? (
        <ul className="buy-plans">
          {offer.plans.map((p) => (
            <li key={p.id} data-testid="detail-plan">
              <div>
                <b>
                  <PlanText plan={p} part="quantity" />
                </b>
                <div className="buy-muted">
                  <PlanText plan={p} part="detail" />
                </div>
              </div>
              <Space>
                <b className="buy-price">{t("price", { amount: formatZ(p.price_micro) })}</b>
                {planButton(p)}
              </Space>
            </li>
          ))}
        </ul>
      ) : (
        <div className="buy-plans">
          <p className="buy-muted">{t("detail.buyout_what")}</p>
          <Space>
            <b className="buy-price">{t("price", { amount: formatZ(offer.buyout_price_micro) })}</b>
            {offer.bought_out ? (
              <Tag color="green" data-testid="bought-out">
                {t("detail.bought_out")}
              </Tag>
            ) : offer.signed_in && !offer.own ? (
              <Button
                type="primary"
                icon={<ShoppingCartOutlined />}
                loading={busy === "agent"}
                onClick={() => "agentId" in target && buy("agent", offer.buyout_price_micro!, null, (rid) => buyAgent(target.agentId, rid))}
                data-testid="buy-agent"
              >
                {t("detail.buy")}
              </Button>
            ) : null}
          </Space>
        </div>
      )}
      {offer.own ? (
        <Tag>{t("detail.own")}</Tag>
      ) : !offer.signed_in ? (
        <a href={loginHref}>
          <Button data-testid="buy-sign-in">{t("detail.sign_in")}</Button>
        </a>
      ) : (
        <p className="buy-muted" data-testid="buy-balance">
          <WalletOutlined /> {t("balance", { amount: formatZBalance(offer.balance_micro) })}{" "}
          <Button type={short ? "primary" : "link"} size="small" onClick={() => setRecharging(true)} data-testid="buy-recharge">
            {t("recharge")}
          </Button>
          {short && <span className="buy-short"> {t("insufficient")}</span>}
        </p>
      )}
      {!offer.own && <p className="buy-muted">{t("detail.share_note", { percent: offer.share_percent })}</p>}
      {offer.signed_in && (
        <RechargeDialog
          open={recharging || Boolean(topup.resume)}
          resumeOrder={topup.resume}
          onClose={() => {
            setRecharging(false);
            topup.clear();
          }}
          onPaid={() => {
            setShort(false);
            void fetchOffer(target).then(setOffer, () => {});
          }}
        />
      )}
    </div>
  );
}
