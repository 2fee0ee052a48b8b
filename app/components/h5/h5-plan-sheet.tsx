// The plan sheet over the H5 chat: the app's paid plans with their price in Z and what each gives,
// the buyer's balance, sign-in for visitors, a confirm step (one request id per confirm, so a double
// tap buys once), and a clear recharge link when the balance is not enough.
import { CheckCircleFilled, LoginOutlined, WalletOutlined } from "@ant-design/icons";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { AppLink } from "../app-link";
import {
  BALANCE_INSUFFICIENT_STATUS,
  buyAppPlan,
  fetchOffer,
  formatZ,
  formatZBalance,
  newRequestId,
  type TOffer,
  type TOfferPlan,
} from "../purchases/purchase-api";
import { PlanText } from "../purchases/plan-text";
import "./h5-plans.css";
import { H5Sheet } from "./h5-sheet";

type TProps = { appId: string; onClose: () => void; onBought: () => void };

/** Where a phone tops up: the phone's edition and recharge page (H2's /mobi/upgrade). */
export const PHONE_RECHARGE_PATH = "/mobi/upgrade";

export function H5PlanSheet({ appId, onClose, onBought }: TProps) {
  const { t } = useTranslation("purchases");
  const [offer, setOffer] = useState<TOffer | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ plan: TOfferPlan; requestId: string } | null>(null);
  const [error, setError] = useState<{ text: string; recharge: boolean } | null>(null);
  const buy = useMutation(
    async (chosen: { plan: TOfferPlan; requestId: string }) => {
      await buyAppPlan(appId, chosen.plan.id, chosen.requestId);
      onBought();
    },
    {
      onError: (err) => {
        const status = err instanceof ApiError ? err.status : 0;
        setError({ text: (err as Error).message, recharge: status === BALANCE_INSUFFICIENT_STATUS });
        setConfirming(null);
        return true;
      },
    },
  );
  const busy = buy.busy;

  useEffect(() => {
    let live = true;
    fetchOffer({ appId }).then(
      (o) => {
        if (!live) return;
        setOffer(o);
        setPicked(o.plans[0]?.id ?? null);
      },
      (err: Error) => live && setFailed(err.message),
    );
    return () => {
      live = false;
    };
  }, [appId]);

  const plan = offer?.plans.find((p) => p.id === picked) ?? null;
  const short = Boolean(offer && plan && offer.balance_micro !== null && offer.balance_micro < plan.price_micro);
  const loginPath = useMemo(
    () => (typeof window === "undefined" ? "/mobi/login" : `/mobi/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`),
    [],
  );
  // The recharge page offers the way back to this chat once the coins are in.
  const rechargePath = useMemo(
    () =>
      typeof window === "undefined"
        ? PHONE_RECHARGE_PATH
        : `${PHONE_RECHARGE_PATH}?return=${encodeURIComponent(window.location.pathname + window.location.search)}`,
    [],
  );

  const pay = async () => {
    if (!confirming || busy) return;
    setError(null);
    await buy.run(confirming);
  };

  return (
    <H5Sheet title={t("sheet.title")} closeLabel={t("sheet.close")} testId="h5-plan-sheet" onClose={onClose}>
      {failed ? (
        <p className="h5-muted">{failed}</p>
      ) : !offer ? (
        <p className="h5-muted">{t("sheet.loading")}</p>
      ) : offer.plans.length === 0 ? (
        <p className="h5-muted">{t("sheet.none")}</p>
      ) : (
        <>
          <ul className="h5-plans" role="radiogroup" aria-label={t("sheet.title")}>
            {offer.plans.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  role="radio"
                  aria-checked={p.id === picked}
                  className={`h5-plan${p.id === picked ? " is-picked" : ""}`}
                  onClick={() => (setPicked(p.id), setConfirming(null), setError(null))}
                  data-testid="h5-plan"
                >
                  <span className="h5-plan__what">
                    <b>
                      <PlanText plan={p} part="quantity" />
                    </b>
                    <small>
                      <PlanText plan={p} part="detail" />
                    </small>
                  </span>
                  <span className="h5-plan__price">{t("price", { amount: formatZ(p.price_micro) })}</span>
                  {p.id === picked && <CheckCircleFilled className="h5-plan__tick" />}
                </button>
              </li>
            ))}
          </ul>
          {offer.own ? (
            <p className="h5-muted">{t("sheet.own")}</p>
          ) : !offer.signed_in ? (
            <div className="h5-plan-note">
              <p>{t("sheet.sign_in")}</p>
              <AppLink to={loginPath} className="h5-btn h5-btn--primary h5-btn--block" data-testid="h5-plan-login">
                <LoginOutlined /> {t("sheet.sign_in_button")}
              </AppLink>
            </div>
          ) : (
            <>
              <p className="h5-plan-balance" data-testid="h5-plan-balance">
                <WalletOutlined /> {t("balance", { amount: formatZBalance(offer.balance_micro) })}
              </p>
              {(short || error?.recharge) && (
                <div className="h5-plan-note is-warning" data-testid="h5-plan-insufficient">
                  <p>{t("insufficient")}</p>
                  <AppLink to={rechargePath} className="h5-link" data-testid="h5-plan-recharge">
                    {t("recharge")}
                  </AppLink>
                </div>
              )}
              {error && !error.recharge && <p className="h5-plan-note is-warning">{error.text}</p>}
              {confirming ? (
                <div className="h5-plan-confirm" data-testid="h5-plan-confirm">
                  <p>
                    {t("confirm.body", { amount: formatZ(confirming.plan.price_micro) })} <PlanText plan={confirming.plan} part="quantity" />
                  </p>
                  <div className="h5-plan-confirm__actions">
                    <button type="button" className="h5-btn" onClick={() => setConfirming(null)} disabled={busy}>
                      {t("confirm.back")}
                    </button>
                    <button type="button" className="h5-btn h5-btn--primary" onClick={() => void pay()} disabled={busy} data-testid="h5-plan-pay">
                      {busy ? t("confirm.paying") : t("confirm.pay", { amount: formatZ(confirming.plan.price_micro) })}
                    </button>
                  </div>
                </div>
              ) : (
                <button
                  type="button"
                  className="h5-btn h5-btn--primary h5-btn--block"
                  disabled={!plan || short}
                  onClick={() => plan && setConfirming({ plan, requestId: newRequestId() })}
                  data-testid="h5-plan-buy"
                >
                  {plan ? t("buy", { amount: formatZ(plan.price_micro) }) : t("sheet.pick")}
                </button>
              )}
            </>
          )}
        </>
      )}
    </H5Sheet>
  );
}
