// /withdrawal: withdraw coins (never gift credit) with name, ID number, phone and amount; the tax
// and the received amount shown before confirming; arrives in 7 working days.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Space } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { WithdrawalForm } from "../../components/money/withdrawals/withdrawal-form";
import { requireSessionAccount } from "../../lib/auth.server";
import { getWallet } from "../../../server/money/ledger.service";
import { MICRO, WITHDRAWAL_MIN_MICRO, WITHDRAWAL_WORKING_DAYS } from "../../../server/money/money.constants";
import { mayWithdraw } from "../../../server/money/withdrawals/withdrawals.service";

export const handle = { i18n: ["withdrawals"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const [wallet, allowed] = await Promise.all([getWallet(account.id), mayWithdraw(account.id)]);
  return { withdrawableMicro: wallet.spendable, minYuan: WITHDRAWAL_MIN_MICRO / MICRO, days: WITHDRAWAL_WORKING_DAYS, forbidden: !allowed };
}

export default function WithdrawalPage() {
  const { t } = useTranslation("withdrawals");
  const data = useLoaderData<typeof loader>();
  return (
    <div className="console__page" data-testid="withdrawal-page">
      <Space align="baseline" wrap style={{ justifyContent: "space-between", width: "100%" }}>
        <h1 className="console__title">{t("form.title")}</h1>
        <AppLink to="/my_withdrawal" data-testid="withdrawal-mine-link">
          {t("mine.title")}
        </AppLink>
      </Space>
      <WithdrawalForm {...data} />
    </div>
  );
}
