// One page of the sensitive-word list. An administrator's own word is removed; a default word is
// switched off (and can be restored), never deleted.
import { App, Button, Table, Tag, type ButtonProps } from "antd";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import type { TSensitiveWordPage, TSensitiveWordRow } from "../../../server/content/content.schema";

const BASE = "/api/v1/admin/sensitive_words";

type TAction = { path: "remove" | "restore"; label: string; confirm: string; done: string; danger: boolean };

function actionFor(row: TSensitiveWordRow): TAction {
  if (!row.enabled) return { path: "restore", label: "admin.restore", confirm: "", done: "admin.restored", danger: false };
  if (row.source === "default") return { path: "remove", label: "admin.disable", confirm: "admin.disable_confirm", done: "admin.disabled_done", danger: true };
  return { path: "remove", label: "admin.remove", confirm: "admin.remove_confirm", done: "admin.removed", danger: true };
}

export function WordTable({ page, onPage, onChanged }: { page: TSensitiveWordPage; onPage: (page: number, size: number) => void; onChanged: () => void }) {
  const { t } = useTranslation("content");
  const { message, modal } = App.useApp();
  const { run: apply, busyKey } = useMutation(async (row: TSensitiveWordRow, action: TAction) => {
    await apiRequest(`${BASE}/${action.path}`, { body: { words: [row.word] }, json: true });
    message.success(t(action.done));
    onChanged();
  });
  const busy = busyKey?.word ?? null;

  const ask = (row: TSensitiveWordRow) => {
    const action = actionFor(row);
    if (!action.confirm) return void apply(row, action);
    modal.confirm({
      title: t(action.confirm, { word: row.word }),
      okButtonProps: { danger: true, "data-testid": "word-action-ok" } as ButtonProps,
      onOk: () => apply(row, action),
    });
  };

  return (
    <Table
      rowKey={(r) => `${r.source}:${r.word}`}
      size="small"
      dataSource={page.items}
      locale={{ emptyText: t("admin.empty") }}
      onRow={(r) => ({ "data-testid": "word-row", "data-word": r.word }) as never}
      pagination={{ current: page.page, pageSize: page.page_size, total: page.total, showSizeChanger: true, onChange: onPage }}
      columns={[
        { title: t("admin.word"), dataIndex: "word", render: (w: string) => <span data-testid="word-text">{w}</span> },
        {
          title: t("admin.source"),
          key: "source",
          render: (_: unknown, r: TSensitiveWordRow) =>
            r.source === "default" ? (
              <Tag>{r.category ? t(`categories.${r.category}`, { defaultValue: r.category }) : t("admin.sources.default")}</Tag>
            ) : (
              <Tag color="blue">{t("admin.sources.custom")}</Tag>
            ),
        },
        {
          title: t("admin.state"),
          dataIndex: "enabled",
          render: (on: boolean) => (on ? <Tag color="green">{t("admin.states.enabled")}</Tag> : <Tag>{t("admin.states.disabled")}</Tag>),
        },
        {
          title: t("admin.actions"),
          key: "actions",
          render: (_: unknown, r: TSensitiveWordRow) => {
            const action = actionFor(r);
            return (
              <Button size="small" danger={action.danger} loading={busy === r.word} onClick={() => ask(r)} data-testid="word-action">
                {t(action.label)}
              </Button>
            );
          },
        },
      ]}
    />
  );
}
