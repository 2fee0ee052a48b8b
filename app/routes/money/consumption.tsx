// /consumption: what the account's coins and gift credit paid for (purchases, chat and use charges,
// storage, editions, withdrawals), with totals, filters and the xlsx export.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { loadStatement } from "../../components/money/statements/statement-loader.server";
import { StatementView } from "../../components/money/statements/statement-view";
import { requireSessionAccount } from "../../lib/auth.server";

export const handle = { i18n: ["statements"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return loadStatement(account.id, "consumption");
}

export default function ConsumptionPage() {
  const { t } = useTranslation("statements");
  const data = useLoaderData<typeof loader>();
  return (
    <div className="console__page" data-testid="consumption-page">
      <h1 className="console__title">{t("consumption.title")}</h1>
      <p className="console__hint">{t("consumption.lead")}</p>
      <StatementView book="consumption" {...data} />
    </div>
  );
}
