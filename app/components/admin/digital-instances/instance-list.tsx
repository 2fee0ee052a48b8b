// One page of digital-human instances for administrators: running first, each with its app, owner,
// hourly billing, hours billed, total charged and files; deleting one stops it and clears its files.
// A table on wide screens, cards on narrow ones.
import { DeleteOutlined } from "@ant-design/icons";
import { App, Button, Card, Empty, Grid, Pagination, Table, Tag, type ButtonProps } from "antd";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useIsMobi } from "../../app-link";
import { formatBytes } from "../../train/train-format";
import { LocalDate } from "../../ui/local-date";
import { callTrpc, trpc } from "../../../lib/trpc";
import { useMutation } from "../../../lib/use-mutation";
import { formatZ } from "../../../../server/money/money-format";
import type { TInstancePage, TInstanceView } from "../../../../server/digital/instances.schema";

type TProps = { page: TInstancePage; onPage: (page: number) => void; onChanged: () => void };

const filesOf = (i: TInstanceView, t: TFunction, lng: string) =>
  i.fileCount ? t("admin.files", { count: i.fileCount, size: formatBytes(i.fileBytes, lng) }) : t("admin.no_files");

function StateTag({ item }: { item: TInstanceView }) {
  const { t } = useTranslation("instances");
  return (
    <span data-testid="instance-state" data-state={item.state}>
      <Tag color={item.state === "running" ? "green" : "default"}>{t(`admin.states.${item.state}`)}</Tag>
      {item.stopReason && <div className="di-muted">{t(`admin.stop_reasons.${item.stopReason}`)}</div>}
    </span>
  );
}

export function InstanceList({ page, onPage, onChanged }: TProps) {
  const { t, i18n } = useTranslation("instances");
  const { message, modal } = App.useApp();
  const screens = Grid.useBreakpoint();
  const narrow = useIsMobi() || screens.lg === false;
  const { run: removeNow, busyKey } = useMutation(async (item: TInstanceView) => {
    const removed = await callTrpc(() => trpc.digitalInstances.remove.mutate({ id: item.id }));
    message.success(t("admin.deleted", { count: removed.files, size: formatBytes(removed.bytes, i18n.language) }));
    onChanged();
  });

  const remove = (item: TInstanceView) =>
    modal.confirm({
      title: t("admin.delete_title", { app: item.app.name }),
      content: t("admin.delete_confirm", { files: filesOf(item, t, i18n.language) }),
      okText: t("admin.delete"),
      okButtonProps: { danger: true, "data-testid": "instance-delete-ok" } as ButtonProps,
      onOk: () => removeNow(item),
    });

  const perHour = (i: TInstanceView) => <span className="di-money">{t("admin.per_hour", { amount: formatZ(i.hourPriceMicro) })}</span>;
  const charged = (i: TInstanceView) => <span className="di-money">{t("admin.amount", { amount: formatZ(i.chargedMicro) })}</span>;
  const deleteButton = (i: TInstanceView) => (
    <Button size="small" danger icon={<DeleteOutlined />} loading={busyKey?.id === i.id} onClick={() => remove(i)} data-testid="instance-delete">
      {t("admin.delete")}
    </Button>
  );

  if (!page.items.length)
    return (
      <Card>
        <Empty description={t("admin.empty")} data-testid="instances-empty" />
      </Card>
    );
  const pager = { current: page.page, pageSize: page.pageSize, total: page.total, onChange: onPage, showSizeChanger: false, hideOnSinglePage: true };
  if (narrow)
    return (
      <div className="di-cards" data-testid="instance-list">
        {page.items.map((i) => (
          <Card key={i.id} size="small" data-testid="instance-row" data-id={i.id}>
            <div className="di-card__top">
              <div>
                <div className="di-card__name">{i.app.name}</div>
                <div className="di-muted">{i.owner.nickname}</div>
              </div>
              <StateTag item={i} />
            </div>
            <dl className="di-card__facts">
              <dt>{t("admin.columns.billing")}</dt>
              <dd>{perHour(i)}</dd>
              <dt>{t("admin.columns.hours")}</dt>
              <dd>{t("admin.hours", { count: i.hoursBilled })}</dd>
              <dt>{t("admin.columns.charged")}</dt>
              <dd>{charged(i)}</dd>
              <dt>{t("admin.columns.started")}</dt>
              <dd>
                <LocalDate iso={i.startedAt} withTime />
              </dd>
              <dt>{i.stoppedAt ? t("admin.states.stopped") : t("admin.columns.last_active")}</dt>
              <dd>
                <LocalDate iso={i.stoppedAt ?? i.lastActiveAt} withTime />
              </dd>
              <dt>{t("admin.columns.files")}</dt>
              <dd>{filesOf(i, t, i18n.language)}</dd>
            </dl>
            {deleteButton(i)}
          </Card>
        ))}
        <Pagination className="di-pager" size="small" {...pager} />
      </div>
    );
  return (
    <Table<TInstanceView>
      rowKey="id"
      size="small"
      dataSource={page.items}
      pagination={pager}
      onRow={(i) => ({ "data-testid": "instance-row", "data-id": i.id }) as never}
      data-testid="instance-list"
      columns={[
        {
          title: t("admin.columns.app"),
          key: "app",
          className: "di-app-cell",
          render: (_, i) => (
            <>
              <div>{i.app.name}</div>
              <div className="di-muted">{i.owner.nickname}</div>
            </>
          ),
        },
        { title: t("admin.columns.state"), key: "state", render: (_, i) => <StateTag item={i} /> },
        {
          title: t("admin.columns.started"),
          key: "started",
          render: (_, i) => (
            <>
              <LocalDate iso={i.startedAt} withTime />
              <div className="di-muted">
                {i.stoppedAt ? (
                  <>
                    {t("admin.states.stopped")} <LocalDate iso={i.stoppedAt} withTime />
                  </>
                ) : (
                  <>
                    {t("admin.columns.last_active")} <LocalDate iso={i.lastActiveAt} withTime />
                  </>
                )}
              </div>
            </>
          ),
        },
        { title: t("admin.columns.billing"), key: "billing", render: (_, i) => perHour(i) },
        {
          title: t("admin.columns.hours"),
          key: "hours",
          align: "right",
          render: (_, i) => <span className="di-money">{t("admin.hours", { count: i.hoursBilled })}</span>,
        },
        { title: t("admin.columns.charged"), key: "charged", align: "right", render: (_, i) => charged(i) },
        { title: t("admin.columns.files"), key: "files", render: (_, i) => filesOf(i, t, i18n.language) },
        { title: t("admin.columns.actions"), key: "actions", render: (_, i) => deleteButton(i) },
      ]}
    />
  );
}
