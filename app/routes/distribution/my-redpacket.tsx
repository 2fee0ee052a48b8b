// /my_redpacket: the gift credit I received (the 100 Z experience bonus and other bonuses) and what
// of it is left. Gift credit pays before coins and cannot be withdrawn.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Card, Empty, Statistic, Table, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { LocalDate } from "../../components/ui/local-date";
import { requireSessionAccount } from "../../lib/auth.server";
import { getMyRedPacket } from "../../../server/money/distribution/distribution.service";
import { formatZ } from "../../../server/money/statements/statements.schema";
import "../../components/distribution/distribution.css";

export const handle = { i18n: ["distribution"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return getMyRedPacket(account);
}

export default function MyRedPacketPage() {
  const { t } = useTranslation("distribution");
  const r = useLoaderData<typeof loader>();
  return (
    <div className="console__page" data-testid="my-redpacket-page">
      <h1 className="console__title">{t("redpacket.title")}</h1>
      <p className="console__hint">{t("redpacket.lead")}</p>
      <div className="dist-totals">
        <Card size="small">
          <Statistic title={t("redpacket.received")} value={formatZ(r.total_received)} suffix={t("unit")} />
        </Card>
        <Card size="small">
          <Statistic title={t("redpacket.left")} value={formatZ(r.left)} suffix={t("unit")} valueStyle={{ color: "#cf1322" }} data-testid="redpacket-left" />
        </Card>
        <Card size="small">
          <Statistic title={t("redpacket.used")} value={formatZ(Math.max(0, r.total_received - r.left))} suffix={t("unit")} />
        </Card>
      </div>
      <Card title={t("redpacket.list")}>
        <Table
          size="small"
          rowKey="id"
          dataSource={r.received}
          pagination={{ pageSize: 30, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description={t("redpacket.empty")} /> }}
          columns={[
            {
              title: t("columns.source"),
              dataIndex: "source",
              render: (v: string) => <Tag color={v === "experience_bonus" ? "red" : "gold"}>{t(`redpacket.sources.${v}`)}</Tag>,
            },
            { title: t("columns.amount"), dataIndex: "amount", align: "right", render: (v: number) => <span className="dist-amount">{formatZ(v)}</span> },
            { title: t("columns.date"), dataIndex: "created_at", render: (v: string) => <LocalDate iso={v} withTime /> },
          ]}
        />
        <p className="console__hint">{t("redpacket.note")}</p>
      </Card>
    </div>
  );
}
