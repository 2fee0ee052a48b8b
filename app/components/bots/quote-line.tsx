// The bot package's price per year and the edition's bot count ("3 of 10 bots used"), with the
// way up when the edition has no room: "bot limit reached, upgrade".
import { Alert, Typography } from "antd";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useBotsHref } from "./bot-links";
import { formatMicro, type TBotQuote } from "./types";

export const limitReached = (q: TBotQuote) => q.limit !== null && q.used >= q.limit;

export function QuoteLine({ quote, showLimitAlert = true }: { quote: TBotQuote; showLimitAlert?: boolean }) {
  const { t } = useTranslation("bots");
  const href = useBotsHref();
  const used =
    quote.limit === null
      ? t("quote.used_unlimited", { used: quote.used })
      : quote.limit === 0
        ? t("quote.used_none")
        : t("quote.used", { used: quote.used, limit: quote.limit });
  return (
    <div className="bots-quote" data-testid="bot-quote" data-used={quote.used} data-limit={quote.limit ?? ""}>
      <Typography.Text>{t("quote.price", { price: formatMicro(quote.price_year_micro), days: quote.package_days })}</Typography.Text>
      <Typography.Text type="secondary">
        {t("quote.edition", { edition: t(`editions.${quote.edition}`, { ns: "common", defaultValue: quote.edition }) })} ·{" "}
        <span data-testid="bot-quote-used">{used}</span>
      </Typography.Text>
      {showLimitAlert && limitReached(quote) && (
        <Alert
          type="warning"
          showIcon
          className="bots-alert"
          data-testid="bot-limit-alert"
          message={t("bot_limit_reached", { ns: "errors" })}
          description={quote.limit === 0 ? t("quote.no_bots_in_edition") : t("quote.limit_hint")}
          action={
            <Link to={href("/upgrade")} data-testid="bot-upgrade-link">
              {t("quote.upgrade")}
            </Link>
          }
        />
      )}
    </div>
  );
}
