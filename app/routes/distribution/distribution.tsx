// /distribution: my share links (each with its QR code and copy button), my invitees and what my
// links earned (today, this month, all time, by app). Basic edition: the upgrade hint instead of
// the links, the earnings still shown.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Alert, Avatar, Button, Card, Empty, Space, Statistic, Table, Tag } from "antd";
import { PictureOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { LinkQr } from "../../components/distribution/link-qr";
import { LocalDate } from "../../components/ui/local-date";
import { requireSessionAccount } from "../../lib/auth.server";
import { buildShareUrl } from "../../../server/apps/app-share";
import { getDistributionOverview } from "../../../server/money/distribution/distribution.service";
import { formatZ } from "../../../server/money/statements/statements.schema";
import "../../components/distribution/distribution.css";

export const handle = { i18n: ["distribution"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return getDistributionOverview(account);
}

/** The share link's path and query (the origin is the page's own). */
const sharePath = (appId: string, touser: string) => buildShareUrl("", appId, touser);

export default function DistributionPage() {
  const { t } = useTranslation("distribution");
  const o = useLoaderData<typeof loader>();
  const totals = [
    ["today", o.earnings.today],
    ["month", o.earnings.month],
    ["total", o.earnings.total],
  ] as const;
  return (
    <div className="console__page" data-testid="distribution-page">
      <h1 className="console__title">{t("overview.title")}</h1>
      <p className="console__hint">{t("overview.lead")}</p>

      <div className="dist-totals" data-testid="distribution-earnings">
        {totals.map(([k, v]) => (
          <Card key={k} size="small">
            <Statistic title={t(`earnings.${k}`)} value={formatZ(v)} suffix={t("unit")} />
          </Card>
        ))}
        <Card size="small">
          <Statistic title={t("earnings.count")} value={o.earnings.count} />
          <Space wrap size={12}>
            <AppLink to="/my_bonus">{t("overview.to_bonus")}</AppLink>
            <AppLink to="/invitation">{t("overview.to_invitation")}</AppLink>
          </Space>
        </Card>
      </div>

      <Card className="dist-section" title={t("links.title")}>
        {!o.enabled ? (
          <Alert
            type="info"
            showIcon
            data-testid="distribution-upgrade"
            message={t("links.upgrade_title")}
            description={t("links.upgrade_body", { edition: t(`editions.${o.upgrade_to ?? "professional"}`, { ns: "common" }) })}
            action={
              <AppLink to="/upgrade">
                <Button type="primary">{t("links.upgrade")}</Button>
              </AppLink>
            }
          />
        ) : o.links.length === 0 ? (
          <Empty description={t("links.empty")} />
        ) : (
          <div className="dist-apps" data-testid="distribution-links">
            {o.links.map((l) => (
              <Card key={l.app_id} size="small" data-testid="distribution-link" data-app-id={l.app_id}>
                <div className="dist-app__head">
                  <Avatar shape="square" size={36} src={l.icon_url || undefined} icon={<PictureOutlined />} />
                  <span className="dist-app__name">{l.name}</span>
                  <Tag color={l.own ? "blue" : "default"}>{l.own ? t("links.own") : t("links.used")}</Tag>
                  <Tag color="gold">{t("links.share", { percent: l.share_percent })}</Tag>
                </div>
                <LinkQr path={sharePath(l.app_id, o.touser)} name={l.name} testId="distribution-share" qrSize={120} />
              </Card>
            ))}
          </div>
        )}
      </Card>

      <Card className="dist-section" title={t("earnings.by_app")}>
        <Table
          size="small"
          rowKey={(r) => r.app_id ?? r.app_name}
          dataSource={o.earnings.by_app}
          pagination={false}
          locale={{ emptyText: <Empty description={t("earnings.empty")} /> }}
          columns={[
            { title: t("columns.app"), dataIndex: "app_name" },
            { title: t("columns.count"), dataIndex: "count", align: "right" },
            { title: t("columns.dividend"), dataIndex: "amount", align: "right", render: (v: number) => <span className="dist-amount">{formatZ(v)}</span> },
          ]}
          data-testid="distribution-by-app"
        />
      </Card>

      <Card className="dist-section" title={t("invitees.title", { count: o.invitees.length })}>
        <Table
          size="small"
          rowKey={(r, i) => `${r.name}-${r.joined_at}-${i}`}
          dataSource={o.invitees}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description={t("invitees.empty")} /> }}
          columns={[
            { title: t("columns.invitee"), dataIndex: "name" },
            { title: t("columns.joined"), dataIndex: "joined_at", render: (v: string) => <LocalDate iso={v} /> },
          ]}
          data-testid="distribution-invitees"
        />
      </Card>
    </div>
  );
}
