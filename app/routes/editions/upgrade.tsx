// /upgrade (membership and edition purchase): the account's edition and time left, its
// balance with the gift credit, every edition compared, and buy / renew / upgrade at the price
// this account would pay now (pro-rated), from the balance or through a payment order.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Card, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { EditionCompareTable } from "../../components/site/edition-plans";
import { EditionPurchase } from "../../components/editions/edition-purchase";
import { MembershipSummary } from "../../components/editions/membership-summary";
import { requireSessionAccount } from "../../lib/auth.server";
import { getMembership } from "../../../server/money/editions/editions.service";
import { listProviders } from "../../../server/money/payments/providers";
import "../../styles/site-pages.css";

export const handle = { i18n: ["editions", "site"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return { membership: await getMembership(account.id), providers: listProviders() as string[] };
}

export default function Upgrade() {
  const { t } = useTranslation("editions");
  const { membership, providers } = useLoaderData<typeof loader>();
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }} data-testid="upgrade-page">
      <div>
        <Typography.Title level={3} style={{ marginBottom: 4 }}>
          {t("page.title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("page.lead")}</Typography.Text>
      </div>
      <MembershipSummary membership={membership} />
      <Card>
        <EditionPurchase membership={membership} providers={providers} />
      </Card>
      <Card>
        <EditionCompareTable />
      </Card>
    </Space>
  );
}
