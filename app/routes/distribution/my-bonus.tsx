// /my_bonus: the dividends my share links earned, newest first: app, buyer (masked), price, share,
// dividend and date, filtered by China-time days (in the query, so a filtered view can be linked).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { Button, Card, Empty, Grid, Input, Statistic, Table, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { useIsMobi } from "../../components/app-link";
import { LocalDate } from "../../components/ui/local-date";
import { requireSessionAccount } from "../../lib/auth.server";
import { listMyDividends } from "../../../server/money/distribution/distribution.service";
import { ZDividendFilter, type TDividend } from "../../../server/money/distribution/distribution.schema";
import { formatZ } from "../../../server/money/statements/statements.schema";
import "../../components/distribution/distribution.css";

export const handle = { i18n: ["distribution"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const q = new URL(request.url).searchParams;
  // A malformed date in the address is dropped rather than refused: the page shows everything.
  const parsed = ZDividendFilter.safeParse({ from: q.get("from") || undefined, to: q.get("to") || undefined });
  const filter = parsed.success ? parsed.data : {};
  return { filter, items: await listMyDividends(account, filter) };
}

export default function MyBonusPage() {
  const { t } = useTranslation("distribution");
  const { filter, items } = useLoaderData<typeof loader>();
  const [, setParams] = useSearchParams();
  const screens = Grid.useBreakpoint();
  const narrow = useIsMobi() || screens.md === false;
  const set = (k: "from" | "to", v: string) =>
    setParams((p) => {
      if (v) p.set(k, v);
      else p.delete(k);
      return p;
    });
  const sum = items.reduce((s, d) => s + (d.refunded ? 0 : d.dividend), 0);
  const dividend = (d: TDividend) => (
    <span className="dist-amount" data-testid="bonus-dividend">
      {formatZ(d.dividend)}
      {d.refunded && <Tag className="dist-refunded">{t("bonus.refunded")}</Tag>}
    </span>
  );

  return (
    <div className="console__page" data-testid="my-bonus-page">
      <h1 className="console__title">{t("bonus.title")}</h1>
      <p className="console__hint">{t("bonus.lead")}</p>
      <Card
        title={
          <div className="dist-filters" data-testid="bonus-filters">
            <Input
              type="date"
              value={filter.from ?? ""}
              max={filter.to}
              onChange={(e) => set("from", e.target.value)}
              aria-label={t("bonus.from")}
              data-testid="bonus-from"
            />
            <span>–</span>
            <Input
              type="date"
              value={filter.to ?? ""}
              min={filter.from}
              onChange={(e) => set("to", e.target.value)}
              aria-label={t("bonus.to")}
              data-testid="bonus-to"
            />
            {(filter.from || filter.to) && (
              <Button type="link" onClick={() => setParams(new URLSearchParams())}>
                {t("bonus.reset")}
              </Button>
            )}
          </div>
        }
        extra={<Statistic className="dist-sum" title={t("bonus.sum")} value={formatZ(sum)} suffix={t("unit")} />}
      >
        {narrow ? (
          items.length === 0 ? (
            <Empty description={t("bonus.empty")} />
          ) : (
            <ul className="dist-list" data-testid="bonus-rows">
              {items.map((d) => (
                <li key={d.id} className="dist-list__item" data-testid="bonus-row">
                  <div className="dist-list__head">
                    <strong>{d.app_name}</strong>
                    {dividend(d)}
                  </div>
                  <div className="dist-list__meta">
                    {t("bonus.line", { buyer: d.buyer, price: formatZ(d.price), percent: d.share_percent ?? "-" })} · <LocalDate iso={d.created_at} withTime />
                  </div>
                </li>
              ))}
            </ul>
          )
        ) : (
          <Table
            size="small"
            rowKey="id"
            dataSource={items}
            pagination={{ pageSize: 30, hideOnSinglePage: true }}
            locale={{ emptyText: <Empty description={t("bonus.empty")} /> }}
            onRow={() => ({ "data-testid": "bonus-row" }) as React.HTMLAttributes<HTMLElement>}
            columns={[
              { title: t("columns.app"), dataIndex: "app_name" },
              { title: t("columns.buyer"), dataIndex: "buyer" },
              { title: t("columns.price"), dataIndex: "price", align: "right", render: (v: number) => formatZ(v) },
              { title: t("columns.share"), dataIndex: "share_percent", align: "right", render: (v: number | null) => (v === null ? "-" : `${v}%`) },
              { title: t("columns.dividend"), key: "dividend", align: "right", render: (_: unknown, d: TDividend) => dividend(d) },
              { title: t("columns.date"), dataIndex: "created_at", render: (v: string) => <LocalDate iso={v} withTime /> },
            ]}
          />
        )}
      </Card>
    </div>
  );
}
