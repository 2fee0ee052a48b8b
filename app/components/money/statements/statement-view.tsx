// One book of a user's statement (/income or /consumption): totals, filters (type, China-time days,
// app), the lines newest first with "load more", and the xlsx export of what the filters select.
// Strings in the "statements" namespace.
import { DownloadOutlined } from "@ant-design/icons";
import { Button, Card, Empty, Grid, Input, Select, Statistic, Table, Tag } from "antd";
import type { ReactNode } from "react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../../lib/api-client";
import { useMutation } from "../../../lib/use-mutation";
import { useIsMobi } from "../../app-link";
import { LocalDate } from "../../ui/local-date";
import {
  BOOKS,
  formatZ,
  type TBook,
  type TStatementFilters,
  type TStatementLine,
  type TStatementPage,
  type TStatementTotals,
} from "../../../../server/money/statements/statements.schema";
import { describeLine } from "../../../../server/money/statements/statements.format";
import "./statements.css";

type TProps = {
  book: TBook;
  initial: TStatementPage;
  totals: TStatementTotals;
  apps: { id: string; name: string }[];
  /** Beside the totals: the withdraw button on /income. */
  actions?: ReactNode;
};

const INCOME_COLOURS: Record<string, string> = { sale_income: "green", dividend: "gold", refund: "blue" };

export function queryOf(filters: TStatementFilters, cursor?: string | null) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) q.set(k, String(v));
  if (cursor) q.set("cursor", cursor);
  return q.toString();
}

export function StatementView({ book, initial, totals, apps, actions }: TProps) {
  const { t } = useTranslation("statements");
  const screens = Grid.useBreakpoint();
  const narrow = useIsMobi() || screens.md === false;
  const [filters, setFilters] = useState<TStatementFilters>({});
  const [items, setItems] = useState<TStatementLine[]>(initial.items);
  const [cursor, setCursor] = useState<string | null>(initial.next_cursor);
  const first = useRef(true);

  const { run: load, busy: loading } = useMutation(async (f: TStatementFilters, after: string | null) => {
    const page = await apiRequest<TStatementPage>(`/api/v1/statements/${book}?${queryOf(f, after)}`);
    setItems((old) => (after ? [...old, ...page.items] : page.items));
    setCursor(page.next_cursor);
  });

  useEffect(() => {
    // The first page came with the page itself.
    if (first.current) {
      first.current = false;
      return;
    }
    void load(filters, null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filters]);

  const filter = (patch: Partial<TStatementFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const amountCell = (line: TStatementLine) => (
    <span className={line.amount_micro > 0 ? "stmt-amount stmt-amount--in" : "stmt-amount"} data-testid="statement-amount">
      {formatZ(line.amount_micro, { signed: true })}
    </span>
  );
  const typeTag = (line: TStatementLine) => <Tag color={INCOME_COLOURS[line.type]}>{t(`types.${line.type}`)}</Tag>;
  const labels = ["today", "month", "all"] as const;

  return (
    <div className="stmt" data-testid={`statement-${book}`}>
      <div className="stmt-totals">
        {labels.map((k) => (
          <Card key={k} size="small" className="stmt-total">
            <Statistic title={t(`${book}.${k}`)} value={formatZ(totals[k])} suffix={t("unit")} />
          </Card>
        ))}
        {totals.withdrawable !== null && (
          <Card size="small" className="stmt-total stmt-total--main">
            <Statistic title={t("income.withdrawable")} value={formatZ(totals.withdrawable)} suffix={t("unit")} valueStyle={{ color: "#0958d9" }} />
            {actions}
          </Card>
        )}
      </div>
      <Card className="stmt-card">
        <div className="stmt-toolbar">
          <div className="stmt-filters" data-testid="statement-filters">
            <Select
              value={filters.type ?? ""}
              onChange={(type) => filter({ type: type || undefined })}
              options={[{ value: "", label: t("filters.all_types") }, ...BOOKS[book].map((v) => ({ value: v, label: t(`types.${v}`) }))]}
              className="stmt-filters__select"
              aria-label={t("filters.type")}
              data-testid="statement-filter-type"
            />
            <span className="stmt-filters__dates">
              <Input
                type="date"
                value={filters.from ?? ""}
                max={filters.to}
                onChange={(e) => filter({ from: e.target.value || undefined })}
                aria-label={t("filters.dates")}
                data-testid="statement-filter-from"
              />
              <span>–</span>
              <Input
                type="date"
                value={filters.to ?? ""}
                min={filters.from}
                onChange={(e) => filter({ to: e.target.value || undefined })}
                aria-label={t("filters.dates")}
                data-testid="statement-filter-to"
              />
            </span>
            {apps.length > 0 && (
              <Select
                value={filters.app_id ?? ""}
                onChange={(app_id) => filter({ app_id: app_id || undefined })}
                options={[{ value: "", label: t("filters.all_apps") }, ...apps.map((a) => ({ value: a.id, label: a.name }))]}
                className="stmt-filters__select"
                aria-label={t("filters.app")}
                data-testid="statement-filter-app"
              />
            )}
            {Object.values(filters).some(Boolean) && (
              <Button type="link" onClick={() => setFilters({})}>
                {t("filters.reset")}
              </Button>
            )}
          </div>
          <Button icon={<DownloadOutlined />} href={`/api/v1/statements/${book}/export?${queryOf(filters)}`} download data-testid="statement-export">
            {t("filters.export")}
          </Button>
        </div>
        {narrow ? (
          items.length === 0 ? (
            <Empty description={t(`${book}.empty`)} />
          ) : (
            <ul className="stmt-list" data-testid="statement-lines">
              {items.map((line) => (
                <li key={line.id} className="stmt-list__item" data-testid="statement-line" data-type={line.type}>
                  <div className="stmt-list__head">
                    {typeTag(line)}
                    {amountCell(line)}
                  </div>
                  <div className="stmt-list__detail">{describeLine(line, t)}</div>
                  <small className="console__hint">
                    <LocalDate iso={line.at} withTime />
                  </small>
                </li>
              ))}
            </ul>
          )
        ) : (
          <Table<TStatementLine>
            rowKey="id"
            size="middle"
            loading={loading}
            pagination={false}
            dataSource={items}
            locale={{ emptyText: <Empty description={t(`${book}.empty`)} /> }}
            data-testid="statement-lines"
            onRow={(line) => ({ "data-testid": "statement-line", "data-type": line.type }) as React.HTMLAttributes<HTMLElement>}
            columns={[
              { key: "at", title: t("table.time"), width: 190, render: (_, line) => <LocalDate iso={line.at} withTime /> },
              { key: "type", title: t("table.type"), width: 150, render: (_, line) => typeTag(line) },
              { key: "detail", title: t("table.detail"), render: (_, line) => describeLine(line, t) },
              { key: "amount", title: t("table.amount"), align: "right", width: 150, render: (_, line) => amountCell(line) },
            ]}
          />
        )}
        {cursor && (
          <div className="stmt-more">
            <Button onClick={() => void load(filters, cursor)} loading={loading} data-testid="statement-more">
              {t("load_more")}
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}
