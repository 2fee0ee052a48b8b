// A standard set's Q&A items: searched and paged, added and edited in a dialog, deleted, imported
// from xlsx/csv with a report of every row, exported as either.
import { DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined, UploadOutlined } from "@ant-design/icons";
import { App, Button, Card, Dropdown, Empty, Grid, Input, List, Popconfirm, Space, Table, Upload } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { QA_IMPORT_MAX_BYTES, type TQaImportReport, type TQaItemPage, type TQaItemView } from "../../../server/knowledge/training-sets.schema";
import { useIsMobi } from "../app-link";
import { QaImportReport } from "./qa-import-report";
import { QaItemModal } from "./qa-item-modal";
import { exportQaUrl, importQaFile } from "./train-api";

type TProps = { setId: string; initial: TQaItemPage | null; editable: boolean; onChanged: () => void };

export function QaItemsCard({ setId, initial, editable, onChanged }: TProps) {
  const { t } = useTranslation("train");
  const { message } = App.useApp();
  const screens = Grid.useBreakpoint();
  const narrow = useIsMobi() || screens.md === false;
  const [page, setPage] = useState<TQaItemPage>(initial ?? { items: [], total: 0, page: 1, pageSize: 20 });
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<TQaItemView | "new" | null>(null);
  const [report, setReport] = useState<TQaImportReport | null>(null);

  const { run: load, busy: loading } = useMutation(async (p: number, pageSize: number, q: string) =>
    setPage(await callTrpc(() => trpc.trainingSets.qa.list.query({ id: setId, page: p, pageSize, search: q }))),
  );
  useEffect(() => {
    if (!initial) void load(1, 20, "");
  }, [initial, load, setId]);

  const reload = () => load(page.page, page.pageSize, search);
  const changed = async () => {
    await reload();
    onChanged();
  };
  const { run: remove } = useMutation(async (item: TQaItemView) => {
    await callTrpc(() => trpc.trainingSets.qa.delete.mutate({ id: setId, itemId: item.id }));
    message.success(t("qa.deleted"));
    // The last item of a page: go back one page.
    const lastOnPage = page.items.length === 1 && page.page > 1;
    await load(lastOnPage ? page.page - 1 : page.page, page.pageSize, search);
    onChanged();
  });
  const importer = useMutation(async (file: File) => {
    setReport(await importQaFile(setId, file, t("upload_failed", { ns: "errors" })));
    await load(1, page.pageSize, search);
    onChanged();
  });
  const importing = importer.busy;
  const importFile = async (file: File) => {
    if (file.size > QA_IMPORT_MAX_BYTES) return void message.error(t("file_too_large", { ns: "errors" }));
    await importer.run(file);
  };

  const actions = (item: TQaItemView) => (
    <Space size={0}>
      <Button type="link" size="small" icon={<EditOutlined />} disabled={!editable} onClick={() => setEditing(item)} data-testid="qa-edit">
        {t("actions.edit")}
      </Button>
      <Popconfirm title={t("qa.delete_confirm")} onConfirm={() => remove(item)} disabled={!editable} okButtonProps={{ "data-testid": "qa-delete-ok" } as never}>
        <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled={!editable} data-testid="qa-delete">
          {t("actions.delete")}
        </Button>
      </Popconfirm>
    </Space>
  );
  const pagination = {
    current: page.page,
    pageSize: page.pageSize,
    total: page.total,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50, 100],
    onChange: (p: number, size: number) => void load(size !== page.pageSize ? 1 : p, size, search),
  };

  return (
    <Card title={`${t("qa.title")} · ${t("qa.count", { count: page.total })}`} data-testid="qa-card">
      <div className="train-toolbar">
        <Input.Search
          allowClear
          placeholder={t("qa.search")}
          onSearch={(q) => {
            setSearch(q);
            void load(1, page.pageSize, q);
          }}
          data-testid="qa-search"
        />
        <Space wrap>
          <Button type="primary" icon={<PlusOutlined />} disabled={!editable} onClick={() => setEditing("new")} data-testid="qa-add">
            {t("qa.add")}
          </Button>
          <Upload
            accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            showUploadList={false}
            disabled={!editable || importing}
            beforeUpload={(file) => (void importFile(file), false)}
          >
            <Button icon={<UploadOutlined />} loading={importing} disabled={!editable} data-testid="qa-import">
              {t("qa.import")}
            </Button>
          </Upload>
          <Dropdown
            menu={{
              items: (["xlsx", "csv"] as const).map((f) => ({
                key: f,
                label: (
                  <a href={exportQaUrl(setId, f)} download data-testid={`qa-export-${f}`}>
                    {t(`qa.export_${f}`)}
                  </a>
                ),
              })),
            }}
          >
            <Button icon={<DownloadOutlined />} disabled={page.total === 0} data-testid="qa-export">
              {t("qa.export")}
            </Button>
          </Dropdown>
        </Space>
      </div>
      <p className="train-muted" style={{ fontSize: ".85rem" }}>
        {t("qa.import_hint")}
      </p>
      {narrow ? (
        <List
          loading={loading}
          dataSource={page.items}
          locale={{ emptyText: <Empty description={t("qa.empty")} /> }}
          pagination={page.total > page.pageSize ? { ...pagination, showSizeChanger: false, size: "small" } : false}
          renderItem={(item) => (
            <List.Item data-testid="qa-row" actions={[actions(item)]} style={{ flexDirection: "column", alignItems: "stretch" }}>
              <div className="train-qa__question">{item.question}</div>
              <div className="train-qa__answer train-muted">{item.answer}</div>
            </List.Item>
          )}
        />
      ) : (
        <Table<TQaItemView>
          rowKey="id"
          loading={loading}
          dataSource={page.items}
          locale={{ emptyText: <Empty description={t("qa.empty")} /> }}
          pagination={page.total > 10 ? pagination : false}
          onRow={() => ({ "data-testid": "qa-row" }) as never}
          columns={[
            { title: t("qa.question"), dataIndex: "question", width: "35%", render: (q: string) => <span className="train-qa__question">{q}</span> },
            {
              title: t("qa.answer"),
              dataIndex: "answer",
              render: (a: string) => <span className="train-qa__answer">{a.length > 300 ? `${a.slice(0, 300)}…` : a}</span>,
            },
            { title: t("list.actions"), key: "actions", width: 170, render: (_, item) => actions(item) },
          ]}
        />
      )}
      <QaItemModal setId={setId} item={editing} onClose={() => setEditing(null)} onSaved={() => void changed()} />
      <QaImportReport report={report} onClose={() => setReport(null)} />
    </Card>
  );
}
