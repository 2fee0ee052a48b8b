// The account's database training sets: connection, tables, characters, state (with why it
// failed), when last verified, and verify again, edit, delete. Cards on narrow screens.
import { DeleteOutlined, EditOutlined, ReloadOutlined } from "@ant-design/icons";
import { App, Button, Card, Empty, Grid, Space, Table, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink, useAppNavigate, useIsMobi } from "../app-link";
import { LocalDate } from "../ui/local-date";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import type { TDatabaseSetView } from "../../../server/knowledge/database/database-sets.schema";
import { connectionOf, describeFailure, STATE_COLORS } from "./database-format";

type TProps = { sets: TDatabaseSetView[]; selectedId: string | null; onSelect: (id: string) => void; onChanged: (next: TDatabaseSetView[]) => void };

export function DatabaseList({ sets, selectedId, onSelect, onChanged }: TProps) {
  const { t } = useTranslation("database");
  const { message, modal } = App.useApp();
  const navigate = useAppNavigate();
  const screens = Grid.useBreakpoint();
  const narrow = useIsMobi() || screens.md === false;
  const { run: reverify, busyKey } = useMutation(async (s: TDatabaseSetView) => {
    const { result, set } = await callTrpc(() => trpc.databaseSets.reverify.mutate({ id: s.id }));
    onChanged(sets.map((x) => (x.id === set.id ? set : x)));
    if (result.ok) message.success(t("verify_ok", { version: result.server_version, tables: result.tables.join(", ") }));
    else message.error(t("verify_failed", { reason: describeFailure(t, result.failure) }));
  });
  const busyId = busyKey?.id ?? null;
  const removeNow = useMutation(async (s: TDatabaseSetView) => {
    await callTrpc(() => trpc.databaseSets.delete.mutate({ id: s.id }));
    onChanged(sets.filter((x) => x.id !== s.id));
    message.success(t("deleted"));
  });

  const remove = (s: TDatabaseSetView) =>
    modal.confirm({
      title: t("delete_confirm", { name: s.name }),
      okButtonProps: { danger: true, "data-testid": "db-delete-ok" } as never,
      okText: t("delete"),
      onOk: () => removeNow.run(s),
    });

  const name = (s: TDatabaseSetView) => (
    <div>
      <AppLink to={`/Createdatabases?id=${encodeURIComponent(s.id)}`} className="db-name">
        {s.name}
      </AppLink>
      {s.introduction && <div className="db-muted">{s.introduction}</div>}
      <div className="db-muted db-conn">{connectionOf(s)}</div>
    </div>
  );
  const verified = (s: TDatabaseSetView) => (s.verified_at ? <LocalDate iso={s.verified_at} withTime /> : <span>{t("never")}</span>);
  const state = (s: TDatabaseSetView) => (
    <span className="db-state">
      <Tag color={STATE_COLORS[s.state]} data-testid="db-state" data-state={s.state}>
        {t(`states.${s.state}`)}
      </Tag>
      {s.state === "failed" && s.verify_error && <span className="db-state__reason">{describeFailure(t, s.verify_error)}</span>}
    </span>
  );
  const verifiedLine = (s: TDatabaseSetView) => (
    <div className="db-muted">
      {t("columns.verified_at")}: {verified(s)}
    </div>
  );
  const tables = (s: TDatabaseSetView) => (
    <span className="db-tables">
      {s.tables.map((n) => (
        <Tag key={n}>{n}</Tag>
      ))}
    </span>
  );
  const actions = (s: TDatabaseSetView) => (
    <Space wrap size={4}>
      <Button size="small" icon={<ReloadOutlined />} loading={busyId === s.id} onClick={() => void reverify(s)} data-testid="db-reverify">
        {t("verify_again")}
      </Button>
      <Button size="small" icon={<EditOutlined />} onClick={() => navigate(`/Createdatabases?id=${encodeURIComponent(s.id)}`)} data-testid="db-edit">
        {t("edit")}
      </Button>
      <Button size="small" danger icon={<DeleteOutlined />} onClick={() => remove(s)} data-testid="db-delete">
        {t("delete")}
      </Button>
    </Space>
  );

  if (!sets.length)
    return (
      <Card>
        <Empty description={t("empty")} data-testid="db-empty" />
      </Card>
    );
  if (narrow)
    return (
      <div className="db-cards" data-testid="db-list">
        {sets.map((s) => (
          <Card
            key={s.id}
            className={`db-card${s.id === selectedId ? " is-selected" : ""}`}
            data-testid="db-row"
            data-set-id={s.id}
            onClick={() => onSelect(s.id)}
          >
            <div className="db-card__top">
              {name(s)}
              {state(s)}
            </div>
            {tables(s)}
            <div className="db-muted">
              {t("columns.chars")}: {s.char_count} · {t("columns.verified_at")}: {verified(s)}
            </div>
            {actions(s)}
          </Card>
        ))}
      </div>
    );
  return (
    <Card styles={{ body: { padding: 0 } }}>
      <Table<TDatabaseSetView>
        rowKey="id"
        dataSource={sets}
        pagination={sets.length > 20 ? { pageSize: 20 } : false}
        rowClassName={(s) => (s.id === selectedId ? "db-row is-selected" : "db-row")}
        onRow={(s) => ({ "data-testid": "db-row", "data-set-id": s.id, onClick: () => onSelect(s.id) }) as never}
        data-testid="db-list"
        columns={[
          { title: t("columns.name"), key: "name", render: (_, s) => name(s) },
          { title: t("columns.tables"), key: "tables", width: 170, render: (_, s) => tables(s) },
          { title: t("columns.chars"), key: "chars", width: 90, align: "right", render: (_, s) => s.char_count },
          {
            title: t("columns.state"),
            key: "state",
            width: 210,
            render: (_, s) => (
              <>
                {state(s)}
                {verifiedLine(s)}
              </>
            ),
          },
          { title: t("columns.actions"), key: "actions", width: 300, render: (_, s) => actions(s) },
        ]}
      />
    </Card>
  );
}
