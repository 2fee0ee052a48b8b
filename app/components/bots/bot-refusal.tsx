// The platform's refusals a bot owner can act on, shown where they happened with the way out: "bot limit
// reached, upgrade" links to /upgrade, "balance insufficient, recharge" opens the recharge dialog,
// "bot package expired" points at Renew. Other refusals are the caller's (a toast, field errors).
import { Link } from "@remix-run/react";
import { Alert, Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api-client";
import { RechargeDialog } from "../money/recharge-dialog";
import { ERROR_CODES } from "../../../server/errors/codes";
import { useBotsHref } from "./bot-links";

const OWN = ["bot_limit_reached", "balance_insufficient", "bot_package_expired"] as const;
type TRefusal = { code: (typeof OWN)[number]; description: string };

export function useBotRefusal() {
  const [refusal, setRefusal] = useState<TRefusal | null>(null);
  /** Takes the refusal when it is one of ours; false lets the caller show it another way. */
  const take = (err: unknown) => {
    if (!(err instanceof ApiError)) return false;
    const code = OWN.find((c) => ERROR_CODES[c].status === err.status);
    if (!code) return false;
    setRefusal({ code, description: err.description });
    return true;
  };
  return { refusal, take, clear: () => setRefusal(null) };
}

export function BotRefusal({ refusal, onClose }: { refusal: TRefusal | null; onClose: () => void }) {
  const { t } = useTranslation("bots");
  const href = useBotsHref();
  const [recharging, setRecharging] = useState(false);
  if (!refusal) return null;
  const action =
    refusal.code === "bot_limit_reached" ? (
      <Link to={href("/upgrade")} data-testid="bot-refusal-upgrade">
        <Button size="small" type="primary">
          {t("quote.upgrade")}
        </Button>
      </Link>
    ) : refusal.code === "balance_insufficient" ? (
      <Button size="small" type="primary" onClick={() => setRecharging(true)} data-testid="bot-refusal-recharge">
        {t("refusal.recharge")}
      </Button>
    ) : null;
  return (
    <>
      <Alert
        type="error"
        showIcon
        closable
        onClose={onClose}
        className="bots-alert"
        data-testid="bot-refusal"
        data-code={refusal.code}
        message={refusal.description}
        description={t(`refusal.${refusal.code}`)}
        action={action}
      />
      <RechargeDialog open={recharging} onClose={() => setRecharging(false)} />
    </>
  );
}
