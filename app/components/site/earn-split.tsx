import { useTranslation } from "react-i18next";

// Of a sale at price P made through a distributor's link, the platform keeps 10%, the
// distributor receives the app's share (10%-70%) and the developer the rest.
const PRICE = 100;
const PLATFORM_PCT = 10;
const SHARE_PCT = 30;

export function EarnSplit() {
  const { t } = useTranslation("home");
  const platform = (PRICE * PLATFORM_PCT) / 100;
  const distributor = (PRICE * SHARE_PCT) / 100;
  const developer = PRICE - platform - distributor;
  const rows = [
    { key: "developer", cls: "sw-developer", amount: developer, pct: 100 - PLATFORM_PCT - SHARE_PCT },
    { key: "distributor", cls: "sw-distributor", amount: distributor, pct: SHARE_PCT },
    { key: "platform", cls: "sw-platform", amount: platform, pct: PLATFORM_PCT },
  ];
  return (
    <div className="lp-split" data-testid="earn-split">
      <h3>{t("earn.example.title")}</h3>
      <div className="lp-split__meta">{t("earn.example.meta", { share: SHARE_PCT })}</div>
      <div className="lp-split__price">
        <strong>{PRICE}</strong>
        <span>{t("earn.example.unit")}</span>
      </div>
      <div className="lp-split__bar" aria-hidden="true">
        {rows.map((r) => (
          <i key={r.key} className={r.cls} style={{ width: `${r.pct}%` }} />
        ))}
      </div>
      <div className="lp-split__rows">
        {rows.map((r) => (
          <div key={r.key} className="lp-split__row">
            <span className={`lp-split__swatch ${r.cls}`} />
            <span>{t(`earn.example.${r.key}`, { pct: r.pct })}</span>
            <b>{t("earn.example.amount", { amount: r.amount })}</b>
          </div>
        ))}
      </div>
      <div className="lp-split__note">{t("earn.example.note")}</div>
    </div>
  );
}
