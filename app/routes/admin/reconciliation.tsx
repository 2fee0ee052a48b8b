// /admin/reconciliation: the ledger checked against itself for a platform administrator.
// Every kept balance against the sum of its entries, every transaction summing to zero, no wallet
// below zero, the whole ledger summing to zero; a green or red verdict and a re-check.
import { formatZ as formatMicroZ } from "../../../server/money/money-format";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { Alert, Button, Card, Col, Row, Space, Statistic, Table, Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { LocalDate } from "../../components/ui/local-date";
import { requirePageRole } from "../../lib/auth.server";
import { reconcileLedger, type TReconciliation } from "../../../server/money/reconciliation.service";

export const handle = { i18n: ["metering"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageRole(request, "platform_admin");
  return { report: await reconcileLedger() };
}

// Every digit down to the micro: an amount is never rounded (server/money/money-format.ts).
const formatZ = (micro: number) => formatMicroZ(micro);

const PLATFORM_KINDS = ["platform_revenue", "platform_promotion", "escrow", "tax_withheld", "payment_clearing", "payout"];

function isLedgerSound(r: Pick<TReconciliation, "totalMicro" | "mismatches" | "negative" | "unbalanced">) {
  return r.totalMicro === 0 && r.mismatches.length === 0 && r.negative.length === 0 && r.unbalanced.length === 0;
}

export default function Reconciliation() {
  const { t } = useTranslation("metering");
  const { report } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const sound = isLedgerSound(report);
  const checking = revalidator.state !== "idle";
  const problems = report.mismatches.length + report.negative.length + report.unbalanced.length;

  return (
    <div className="console__page" data-testid="reconciliation">
      <Space style={{ width: "100%", justifyContent: "space-between", flexWrap: "wrap" }}>
        <h1 className="console__title">{t("reconciliation.title")}</h1>
        <Button type="primary" loading={checking} onClick={() => revalidator.revalidate()} data-testid="reconciliation-recheck">
          {t("reconciliation.recheck")}
        </Button>
      </Space>
      <Alert
        type={sound ? "success" : "error"}
        showIcon
        data-testid="reconciliation-verdict"
        data-sound={sound ? "yes" : "no"}
        message={sound ? t("reconciliation.sound") : t("reconciliation.unsound", { count: problems + (report.totalMicro === 0 ? 0 : 1) })}
        description={
          <span>
            {t("reconciliation.checked_at")} <LocalDate iso={report.checkedAt} withTime />
          </span>
        }
        style={{ marginBottom: 16 }}
      />

      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Card>
            <Statistic
              title={t("reconciliation.ledger_sum")}
              value={formatZ(report.totalMicro)}
              suffix="Z"
              valueStyle={{ color: report.totalMicro === 0 ? "#389e0d" : "#cf1322" }}
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t("reconciliation.transactions")} value={report.transactions} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t("reconciliation.accounts")} value={report.accounts} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t("reconciliation.problems")} value={problems} valueStyle={{ color: problems ? "#cf1322" : "#389e0d" }} />
          </Card>
        </Col>
      </Row>

      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col xs={24} lg={12}>
          <Card title={t("reconciliation.platform_accounts")} data-testid="reconciliation-platform">
            <Table
              size="small"
              pagination={false}
              rowKey="id"
              dataSource={report.platform}
              locale={{ emptyText: t("reconciliation.none") }}
              columns={[
                {
                  title: t("reconciliation.account"),
                  dataIndex: "id",
                  render: (id: string) => (PLATFORM_KINDS.includes(id) ? t(`reconciliation.platform.${id}`) : id),
                },
                { title: t("reconciliation.balance"), dataIndex: "balanceMicro", align: "right", render: (m: number) => `${formatZ(m)} Z` },
              ]}
            />
            <p className="console__hint" style={{ marginTop: 8 }}>
              {t("reconciliation.platform_hint")}
            </p>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t("reconciliation.user_totals")} data-testid="reconciliation-users">
            <Table
              size="small"
              pagination={false}
              rowKey="kind"
              dataSource={(["spendable", "gift", "frozen"] as const).map((kind) => ({ kind, micro: report.userTotals[kind] }))}
              columns={[
                { title: t("reconciliation.wallet"), dataIndex: "kind", render: (k: string) => t(`reconciliation.wallets.${k}`) },
                { title: t("reconciliation.balance"), dataIndex: "micro", align: "right", render: (m: number) => `${formatZ(m)} Z` },
              ]}
              summary={() => (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>{t("reconciliation.owed")}</Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    {formatZ(report.userTotals.spendable + report.userTotals.gift + report.userTotals.frozen)} Z
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              )}
            />
          </Card>
        </Col>
      </Row>

      <ProblemCard
        label={t("reconciliation.mismatches")}
        testId="reconciliation-mismatches"
        rows={report.mismatches}
        columns={[
          { title: t("reconciliation.account"), dataIndex: "id" },
          { title: t("reconciliation.balance"), dataIndex: "balanceMicro", align: "right", render: (m: number) => `${formatZ(m)} Z` },
          { title: t("reconciliation.entries"), dataIndex: "entriesMicro", align: "right", render: (m: number) => `${formatZ(m)} Z` },
        ]}
      />
      <ProblemCard
        label={t("reconciliation.negative")}
        testId="reconciliation-negative"
        rows={report.negative}
        columns={[
          { title: t("reconciliation.account"), dataIndex: "id" },
          { title: t("reconciliation.balance"), dataIndex: "balanceMicro", align: "right", render: (m: number) => `${formatZ(m)} Z` },
        ]}
      />
      <ProblemCard
        label={t("reconciliation.unbalanced")}
        testId="reconciliation-unbalanced"
        rows={report.unbalanced}
        columns={[
          { title: t("reconciliation.key"), dataIndex: "key" },
          { title: t("reconciliation.kind"), dataIndex: "kind" },
          { title: t("reconciliation.total"), dataIndex: "totalMicro", align: "right", render: (m: number) => `${formatZ(m)} Z` },
        ]}
      />
    </div>
  );
}

/** One kind of problem: its count in the title (green at zero) and the rows, if any. */
function ProblemCard<T extends { id: string }>({ label, testId, rows, columns }: { label: string; testId: string; rows: T[]; columns: TableColumnsType<T> }) {
  const { t } = useTranslation("metering");
  return (
    <Card title={<ProblemTitle label={label} count={rows.length} />} style={{ marginTop: 16 }} data-testid={testId}>
      <Table
        size="small"
        rowKey="id"
        dataSource={rows}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: t("reconciliation.none") }}
        columns={columns}
      />
    </Card>
  );
}

function ProblemTitle({ label, count }: { label: string; count: number }) {
  return (
    <Space>
      {label}
      <Tag color={count ? "red" : "green"}>{count}</Tag>
    </Space>
  );
}
