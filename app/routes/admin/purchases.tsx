// /admin/purchases: platform administrators see purchases (newest first) and refund one: the exact
// reverse of its ledger legs (server/money/purchases/refunds.service.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { App, Button, Card, Empty, Segmented, Table, Tag, type ButtonProps } from "antd";
import { useTranslation } from "react-i18next";
import { LocalDate } from "../../components/ui/local-date";
import { formatZ } from "../../components/purchases/purchase-api";
import { apiRequest } from "../../lib/api-client";
import { requirePageRole } from "../../lib/auth.server";
import { useMutation } from "../../lib/use-mutation";
import { listPurchasesForAdmin, type TAdminPurchaseItem } from "../../../server/money/purchases/refunds.service";
import { ZListPurchasesQuery } from "../../../server/money/purchases/purchases.schema";

export const handle = { i18n: ["purchases"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageRole(request, "platform_admin");
  const q = new URL(request.url).searchParams;
  return listPurchasesForAdmin(ZListPurchasesQuery.parse({ refunded: q.get("refunded") === "yes" ? "yes" : undefined, cursor: q.get("cursor") ?? undefined }));
}

export default function AdminPurchasesPage() {
  const { t } = useTranslation("purchases");
  const { items, next_cursor } = useLoaderData<typeof loader>();
  const { modal, message } = App.useApp();
  const revalidator = useRevalidator();
  const [params, setParams] = useSearchParams();
  const { run: refundNow, busyKey: busy } = useMutation(async (id: string) => {
    await apiRequest(`/api/v1/admin/purchases/${encodeURIComponent(id)}/refund`, { method: "POST", body: {} });
    message.success(t("admin.refund_done"));
    revalidator.revalidate();
  });

  const refund = (p: TAdminPurchaseItem) =>
    modal.confirm({
      title: t("admin.refund"),
      content: t("admin.refund_confirm", { amount: formatZ(p.price_micro), buyer: p.buyer ?? "" }),
      okButtonProps: { danger: true, "data-testid": "refund-ok" } as ButtonProps,
      onOk: () => refundNow(p.id),
    });

  return (
    <div className="console__page" data-testid="admin-purchases">
      <h1 className="console__title">{t("admin.title")}</h1>
      <Card>
        <Segmented
          value={params.get("refunded") === "yes" ? "yes" : "all"}
          options={[
            { value: "all", label: t("admin.filter_all") },
            { value: "yes", label: t("admin.filter_refunded") },
          ]}
          onChange={(v) => setParams(v === "yes" ? { refunded: "yes" } : {})}
          style={{ marginBottom: 12 }}
        />
        {items.length === 0 ? (
          <Empty description={t("admin.empty")} />
        ) : (
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            scroll={{ x: 800 }}
            dataSource={items}
            onRow={(p) => ({ "data-testid": "purchase-row", "data-id": p.id }) as never}
            columns={[
              { title: t("admin.at"), dataIndex: "created_at", render: (v: string) => <LocalDate iso={v} /> },
              { title: t("admin.buyer"), dataIndex: "buyer" },
              { title: t("admin.item"), dataIndex: "target_name" },
              { title: t("admin.kind"), dataIndex: "kind", render: (v: string) => t(`admin.kinds.${v}`, { defaultValue: v }) },
              { title: t("admin.price"), dataIndex: "price_micro", align: "right", render: (v: number) => t("price", { amount: formatZ(v) }) },
              { title: t("admin.sharer"), dataIndex: "sharer", render: (v: string | null) => v ?? "—" },
              {
                title: t("admin.state"),
                dataIndex: "refunded_at",
                render: (v: string | null) => (v ? <Tag color="orange">{t("admin.refunded")}</Tag> : <Tag color="green">{t("admin.active")}</Tag>),
              },
              {
                title: "",
                key: "actions",
                render: (_: unknown, p: TAdminPurchaseItem) =>
                  p.refunded_at ? null : (
                    <Button danger size="small" loading={busy === p.id} onClick={() => refund(p)} data-testid="refund-button">
                      {t("admin.refund")}
                    </Button>
                  ),
              },
            ]}
          />
        )}
        {next_cursor && (
          <Button style={{ marginTop: 12 }} onClick={() => setParams((prev) => ({ ...Object.fromEntries(prev), cursor: next_cursor }))}>
            {t("admin.more")}
          </Button>
        )}
      </Card>
    </div>
  );
}
