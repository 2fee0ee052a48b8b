// /income: what the account earned (sales of its apps and agents, dividends from its share links,
// refunds), with totals, the coins it may withdraw, filters and the xlsx export.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button, Space } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { loadStatement } from "../../components/money/statements/statement-loader.server";
import { StatementView } from "../../components/money/statements/statement-view";
import { requireSessionAccount } from "../../lib/auth.server";

export const handle = { i18n: ["statements"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return loadStatement(account.id, "income");
}

export default function IncomePage() {
  const { t } = useTranslation("statements");
  const data = useLoaderData<typeof loader>();
  return (
    <div className="console__page" data-testid="income-page">
      <h1 className="console__title">{t("income.title")}</h1>
      <p className="console__hint">{t("income.lead")}</p>
      <StatementView
        book="income"
        {...data}
        actions={
          <Space wrap>
            <AppLink to="/withdrawal">
              <Button type="primary" data-testid="income-withdraw">
                {t("income.withdraw")}
              </Button>
            </AppLink>
            <AppLink to="/my_withdrawal">{t("income.my_withdrawals")}</AppLink>
          </Space>
        }
      />
    </div>
  );
}
