// /admin/payments: platform administrators see every payment order with its state, filtered by
// state, provider, purpose or payer. Orders are settled by their provider only; the sandbox's by
// their payers on its cashier page (server/money/payments/sandbox-cashier.service.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { Alert, Card, Empty, Input, Segmented, Select, Space, Table, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { LocalDate } from "../../components/ui/local-date";
import { requirePageRole } from "../../lib/auth.server";
import { listPaymentsForAdmin } from "../../../server/money/payments/payment-admin.service";
import { getPaymentOptions } from "../../../server/money/payments/payment-orders.service";
import { PAYMENT_PROVIDERS, PAYMENT_STATES, ZAdminPaymentsQuery, type TAdminPaymentOrder } from "../../../server/money/payments/payments.schema";
import { formatYuan } from "../../../server/money/money-format";

export const handle = { i18n: ["payments"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requirePageRole(request, "platform_admin");
  const query = ZAdminPaymentsQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const list = await listPaymentsForAdmin({ isPlatformAdmin: true, accountId: account.id }, query);
  return { ...list, sandbox: getPaymentOptions().providers.includes("sandbox") };
}

const STATE_COLOURS: Record<string, string> = { pending: "blue", paid: "green", failed: "red", cancelled: "default" };

export default function AdminPaymentsPage() {
  const { t } = useTranslation("payments");
  const { items, total, page, page_size, sandbox } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const setFilter = (name: string, value: string | undefined) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(name, value);
      else next.delete(name);
      next.delete("page");
      return next;
    });

  return (
    <div className="console__page" data-testid="admin-payments">
      <h1 className="console__title">{t("admin.title")}</h1>
      {sandbox && <Alert type="warning" showIcon title={t("admin.sandbox_banner")} style={{ marginBottom: 16 }} data-testid="admin-payments-sandbox-banner" />}
      <Card>
        <Space wrap style={{ marginBottom: 12 }}>
          <Segmented
            value={params.get("state") ?? "all"}
            options={[{ value: "all", label: t("admin.all") }, ...PAYMENT_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))]}
            onChange={(v) => setFilter("state", v === "all" ? undefined : String(v))}
            data-testid="payments-state-filter"
          />
          <Select
            allowClear
            style={{ width: 180 }}
            placeholder={t("admin.provider")}
            value={params.get("provider") ?? undefined}
            options={PAYMENT_PROVIDERS.map((p) => ({ value: p, label: t(`providers.${p}`) }))}
            onChange={(v) => setFilter("provider", v)}
          />
          <Select
            allowClear
            style={{ width: 150 }}
            placeholder={t("admin.purpose")}
            value={params.get("purpose") ?? undefined}
            options={["topup", "edition", "registration"].map((p) => ({ value: p, label: t(`purposes.${p}`) }))}
            onChange={(v) => setFilter("purpose", v)}
          />
          <Input.Search
            allowClear
            defaultValue={params.get("q") ?? ""}
            placeholder={t("admin.search")}
            onSearch={(v) => setFilter("q", v.trim() || undefined)}
            style={{ width: 240 }}
            data-testid="payments-search"
          />
        </Space>
        {items.length === 0 ? (
          <Empty description={t("admin.empty")} />
        ) : (
          <Table
            rowKey="id"
            size="small"
            scroll={{ x: 960 }}
            dataSource={items}
            onRow={(o) => ({ "data-testid": "payment-row", "data-id": o.id, "data-state": o.state }) as never}
            pagination={{
              current: page,
              pageSize: page_size,
              total,
              showSizeChanger: false,
              onChange: (p) => setParams((prev) => ({ ...Object.fromEntries(prev), page: String(p) })),
            }}
            columns={[
              { title: t("admin.created_at"), dataIndex: "created_at", render: (v: string) => <LocalDate iso={v} withTime /> },
              { title: t("admin.order"), dataIndex: "id", render: (v: string) => <code>{v}</code> },
              { title: t("admin.account"), dataIndex: "account_name", render: (v: string | null) => v ?? "—" },
              { title: t("admin.purpose"), dataIndex: "purpose", render: (v: string) => t(`purposes.${v}`, { defaultValue: v }) },
              {
                title: t("admin.provider"),
                dataIndex: "provider",
                render: (v: string) => (v === "sandbox" || v === "dev" ? <Tag color="orange">{t(`providers.${v}`)}</Tag> : t(`providers.${v}`)),
              },
              { title: t("admin.amount"), dataIndex: "amount", align: "right", render: (v: number) => formatYuan(v) },
              {
                title: t("admin.state"),
                dataIndex: "state",
                render: (v: string, o: TAdminPaymentOrder) => (
                  <Tag color={STATE_COLOURS[v]} title={o.failure_reason ?? undefined}>
                    {t(`states.${v}`)}
                  </Tag>
                ),
              },
              { title: t("admin.trade_no"), dataIndex: "provider_trade_no", render: (v: string | null) => v ?? "—" },
              { title: t("admin.notifications"), dataIndex: "notifications", align: "right" },
            ]}
          />
        )}
      </Card>
    </div>
  );
}
