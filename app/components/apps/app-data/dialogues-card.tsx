// Dialogue details with filters (days, source, feedback, keyword), paged; a row opens its messages.
// The export beside the filters takes the same filters.
import { DislikeOutlined, LikeOutlined } from "@ant-design/icons";
import { App, Button, Card, Empty, Grid, Input, Pagination, Select, Spin, Table, Tag, type PaginationProps } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/api-client";
import { callTrpc, trpc } from "../../../lib/trpc";
import { useIsMobi } from "../../app-link";
import { LocalDate } from "../../ui/local-date";
import {
  APP_SOURCES,
  FEEDBACK_FILTERS,
  KEYWORD_MAX,
  type TAppDialoguePage,
  type TAppDialogueSummary,
  type TAppExportView,
  type TDialogueFilters,
} from "../../../../server/apps/app-data.schema";
import { DateRange, type TDayRange } from "./date-range";
import { DialogueDrawer } from "./dialogue-drawer";
import { ExportPanel } from "./export-panel";

type TProps = { appId: string; initial: TAppDialoguePage; initialRange: TDayRange; exports: TAppExportView[] };

export function DialoguesCard({ appId, initial, initialRange, exports }: TProps) {
  const { t } = useTranslation("appdata");
  const { message } = App.useApp();
  const screens = Grid.useBreakpoint();
  const narrow = useIsMobi() || screens.md === false;
  const [filters, setFilters] = useState<TDialogueFilters>({ range: initialRange });
  const [page, setPage] = useState({ page: initial.page, pageSize: initial.page_size });
  const [data, setData] = useState(initial);
  const [loading, setLoading] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const first = useRef(true);

  useEffect(() => {
    // The first page came with the page itself.
    if (first.current) {
      first.current = false;
      return;
    }
    let live = true;
    setLoading(true);
    callTrpc(() => trpc.appData.dialogues.query({ appId, filters, page: page.page, pageSize: page.pageSize }))
      .then((d) => live && setData(d))
      .catch((err) => live && message.error(errorText(err)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [appId, filters, page, message]);

  const filter = (patch: Partial<TDialogueFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage((p) => ({ ...p, page: 1 }));
  };
  const userOf = (d: TAppDialogueSummary) => (d.user.kind === "account" ? d.user.label : t("user.visitor", { id: d.user.label }));
  const feedbackOf = (d: TAppDialogueSummary) => (
    <span className="appdata-feedback">
      <LikeOutlined /> {d.liked} <DislikeOutlined /> {d.disliked}
    </span>
  );

  const pagination = {
    current: data.page,
    pageSize: data.page_size,
    total: data.total,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50],
    showTotal: (n: number) => t("dialogues.total", { count: n }),
    onChange: (p: number, s: number) => setPage({ page: p, pageSize: s }),
    size: "small",
  } satisfies PaginationProps;

  return (
    <Card title={t("dialogues.title")} className="appdata-card" extra={<ExportPanel appId={appId} filters={filters} initial={exports} />}>
      <div className="appdata-filters" data-testid="appdata-filters">
        <DateRange value={filters.range ?? initialRange} onChange={(range) => filter({ range })} testId="appdata-dialogue-range" />
        <Select
          allowClear
          placeholder={t("filters.source")}
          value={filters.source}
          onChange={(source) => filter({ source })}
          options={APP_SOURCES.map((s) => ({ value: s, label: t(`sources.${s}`) }))}
          className="appdata-filters__select"
          data-testid="appdata-filter-source"
        />
        <Select
          allowClear
          placeholder={t("filters.feedback")}
          value={filters.feedback}
          onChange={(feedback) => filter({ feedback })}
          options={FEEDBACK_FILTERS.map((f) => ({ value: f, label: t(`filters.feedback_${f}`) }))}
          className="appdata-filters__select"
          data-testid="appdata-filter-feedback"
        />
        <Input.Search
          allowClear
          maxLength={KEYWORD_MAX}
          placeholder={t("filters.keyword")}
          onSearch={(v) => filter({ keyword: v.trim() || undefined })}
          className="appdata-filters__keyword"
          data-testid="appdata-filter-keyword"
        />
      </div>
      {narrow ? (
        // Phones: a card per dialogue; a table's columns would squeeze the titles to a letter a line.
        <Spin spinning={loading}>
          <div className="appdata-cards" data-testid="appdata-dialogues">
            {data.items.length === 0 && <Empty description={t("dialogues.empty")} />}
            {data.items.map((d) => (
              <div key={d.id} className="appdata-dcard" data-testid="appdata-dialogue-row" data-dialogue-id={d.id} onClick={() => setOpen(d.id)}>
                <div className="appdata-dcard__top">
                  <span className="appdata-title">{d.title || "—"}</span>
                  {d.source && <Tag>{t(`sources.${d.source}`, { defaultValue: d.source })}</Tag>}
                </div>
                <div className="appdata-dcard__meta">
                  <span>{userOf(d)}</span>
                  <span>
                    {t("dialogues.columns.messages")}: {d.message_count}
                  </span>
                  {feedbackOf(d)}
                  <LocalDate iso={d.created_at} withTime />
                </div>
              </div>
            ))}
          </div>
          <Pagination {...pagination} className="appdata-cards__pages" />
        </Spin>
      ) : (
        <Table<TAppDialogueSummary>
          rowKey="id"
          size="middle"
          loading={loading}
          dataSource={data.items}
          data-testid="appdata-dialogues"
          onRow={(d) => ({ "data-testid": "appdata-dialogue-row", "data-dialogue-id": d.id }) as never}
          locale={{ emptyText: t("dialogues.empty") }}
          pagination={pagination}
          columns={[
            { title: t("dialogues.columns.title"), key: "title", render: (_, d) => <span className="appdata-title">{d.title || "—"}</span> },
            { title: t("dialogues.columns.user"), key: "user", width: 150, render: (_, d) => userOf(d) },
            {
              title: t("dialogues.columns.source"),
              key: "source",
              width: 90,
              render: (_, d) => (d.source ? <Tag>{t(`sources.${d.source}`, { defaultValue: d.source })}</Tag> : "—"),
            },
            { title: t("dialogues.columns.messages"), key: "messages", width: 90, align: "right", render: (_, d) => d.message_count },
            { title: t("dialogues.columns.feedback"), key: "feedback", width: 110, render: (_, d) => feedbackOf(d) },
            { title: t("dialogues.columns.created"), key: "created", width: 170, render: (_, d) => <LocalDate iso={d.created_at} withTime /> },
            {
              title: "",
              key: "view",
              width: 80,
              render: (_, d) => (
                <Button type="link" size="small" onClick={() => setOpen(d.id)} data-testid="appdata-dialogue-view">
                  {t("dialogues.view")}
                </Button>
              ),
            },
          ]}
        />
      )}
      <DialogueDrawer appId={appId} dialogueId={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
