// /datumList: the multimedia library as a table (name, type, size, dimensions, upload time) with
// preview, rename and delete. The roles of the four library pages: see multimedia.tsx.
import { AppstoreOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button, Space, Table, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { MediaLocked } from "../../components/media/media-locked";
import { loadMediaLibrary } from "../../components/media/media-loader.server";
import { MediaThumb } from "../../components/media/media-thumb";
import { MediaToolbar } from "../../components/media/media-toolbar";
import { useMediaActions } from "../../components/media/use-media-actions";
import { formatSize, useMediaPage, type TMediaItem, type TMediaPage, type TMediaQuota } from "../../components/media/media-client";
import { displayFileName } from "../../lib/file-name";
import "../../components/media/media.css";
import { uiLocale } from "../../i18n/config";

export const handle = { i18n: ["media"] };

export const loader = ({ request }: LoaderFunctionArgs) => loadMediaLibrary(request, { pageSize: 12 });

export default function DatumList() {
  const { t } = useTranslation("media");
  const loaded = useLoaderData<typeof loader>();
  return (
    <div className="media-page">
      <div className="media-page__head">
        <h1 className="console__title">{t("title.list")}</h1>
      </div>
      {loaded.locked ? (
        <MediaLocked message={loaded.locked} />
      ) : (
        <ItemsTable initial={{ page: loaded.page as TMediaPage, quota: loaded.quota as TMediaQuota }} kind={loaded.kind} />
      )}
    </div>
  );
}

function ItemsTable({ initial, kind }: { initial: { page: TMediaPage; quota: TMediaQuota }; kind?: "image" | "video" }) {
  const { t, i18n } = useTranslation("media");
  const lib = useMediaPage(initial, kind);
  const { actions, dialogs } = useMediaActions(lib.reload);
  const columns: TableColumnsType<TMediaItem> = [
    {
      key: "preview",
      title: t("columns.preview"),
      width: 96,
      render: (_, item) => (
        <button
          type="button"
          className="media-card__cover"
          onClick={() => actions.onPreview(item)}
          aria-label={`${t("actions.preview")} ${item.name}`}
          data-testid="media-preview"
        >
          <MediaThumb item={item} className="media-thumb media-thumb--small" />
        </button>
      ),
    },
    {
      key: "name",
      title: t("columns.name"),
      render: (_, item) => (
        <span className="media-table__name" title={item.name} data-testid="media-name">
          {displayFileName(item.name)}
        </span>
      ),
    },
    { key: "kind", title: t("columns.kind"), responsive: ["sm"], render: (_, item) => t(`type.${item.kind}`) },
    { key: "size", title: t("columns.size"), responsive: ["md"], render: (_, item) => formatSize(item.size, t) },
    {
      key: "dimensions",
      title: t("columns.dimensions"),
      responsive: ["lg"],
      render: (_, item) => (item.width && item.height ? `${item.width}×${item.height}` : "—"),
    },
    {
      key: "created",
      title: t("columns.created"),
      responsive: ["md"],
      render: (_, item) => <span suppressHydrationWarning>{new Date(item.createdAt).toLocaleString(uiLocale(i18n.language))}</span>,
    },
    {
      key: "actions",
      title: t("columns.actions"),
      render: (_, item) => (
        <Space size={0} wrap>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => actions.onRename(item)} data-testid="media-rename">
            {t("actions.rename")}
          </Button>
          <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => actions.onDelete(item)} data-testid="media-delete">
            {t("actions.delete")}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <>
      <MediaToolbar kind={lib.kind} onKind={lib.setKind} quota={lib.quota}>
        <AppLink to="/multimedia">
          <Button icon={<AppstoreOutlined />}>{t("actions.grid_view")}</Button>
        </AppLink>
        <AppLink to="/CreatedatumList">
          <Button type="primary" icon={<PlusOutlined />} disabled={!lib.quota.remaining}>
            {t("actions.upload")}
          </Button>
        </AppLink>
      </MediaToolbar>
      <Table
        className="media-table"
        rowKey="id"
        columns={columns}
        dataSource={lib.data.items}
        loading={lib.loading}
        locale={{ emptyText: t(lib.kind ? "empty_filtered" : "empty") }}
        pagination={{
          current: lib.data.page,
          pageSize: lib.data.pageSize,
          total: lib.data.total,
          showSizeChanger: false,
          onChange: (p, s) => void lib.setPage(p, s),
          hideOnSinglePage: true,
        }}
        onRow={(item) => ({ "data-testid": "media-row", "data-id": item.id }) as never}
        scroll={{ x: "max-content" }}
      />
      {dialogs}
    </>
  );
}
