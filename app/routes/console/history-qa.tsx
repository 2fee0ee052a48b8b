// /history_qa: my dialogues, newest first. Opening one continues it in /dialogue.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useSearchParams } from "@remix-run/react";
import { Alert, App, Button, Empty, Form, Input, Modal, Spin, Tag, type ButtonProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DialogueRow, type TDialogueItem } from "../../components/chat/dialogue-row";
import { useDialoguePages } from "../../components/chat/use-dialogue-pages";
import { apiRequest, errorText } from "../../lib/api-client";
import { requireSessionAccount } from "../../lib/auth.server";
import { useMutation } from "../../lib/use-mutation";
import "../../styles/chat.css";

export const handle = { i18n: ["chat"] };
export const meta: MetaFunction = () => [{ title: "Zelin" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSessionAccount(request);
  return null;
}

export default function HistoryPage() {
  const { t } = useTranslation("chat");
  const { message, modal } = App.useApp();
  const [params, setParams] = useSearchParams();
  const agentId = params.get("agent_id");
  const pages = useDialoguePages(agentId);
  const [renaming, setRenaming] = useState<TDialogueItem | null>(null);
  const filterName = agentId ? pages.items.find((i) => i.agent_id === agentId)?.agent_name : null;
  const remove = useMutation(
    async (item: TDialogueItem) => {
      await apiRequest(`/api/v1/dialogues/${encodeURIComponent(item.id)}`, { method: "DELETE" });
      pages.remove(item.id);
      void message.success(t("history_page.deleted"));
    },
    { fallback: t("error.network") },
  );

  const confirmDelete = (item: TDialogueItem) =>
    modal.confirm({
      title: t("history_page.delete_confirm"),
      content: item.title,
      okType: "danger",
      okText: t("history_page.delete"),
      okButtonProps: { "data-testid": "dialogue-delete-ok" } as ButtonProps,
      onOk: () => remove.run(item),
    });

  return (
    <div className="console__page history" data-testid="history">
      <div className="history__head">
        <h1 className="console__title">{t("history_page.title")}</h1>
        {agentId && (
          <Tag
            closable
            onClose={() =>
              setParams((p) => {
                p.delete("agent_id");
                p.delete("dialogue_id");
                return p;
              })
            }
            data-testid="history-filter"
          >
            {t("history_page.filtered", { name: filterName ?? "…" })}
          </Tag>
        )}
      </div>
      {pages.error && (
        <Alert
          type="error"
          showIcon
          message={pages.error}
          action={
            <Button size="small" onClick={() => void pages.loadMore()}>
              {t("history_page.retry")}
            </Button>
          }
        />
      )}
      <div className="history__list" data-testid="dialogue-list">
        {pages.items.map((item) => (
          <DialogueRow key={item.id} item={item} onRename={() => setRenaming(item)} onDelete={() => confirmDelete(item)} />
        ))}
      </div>
      {pages.loading && (
        <div className="history__more">
          <Spin size="small" />
        </div>
      )}
      {!pages.loading && pages.done && pages.items.length === 0 && <Empty description={t("history_page.empty")} data-testid="history-empty" />}
      {!pages.loading && pages.done && pages.items.length > 0 && <div className="history__more history__end">{t("history_page.end")}</div>}
      <RenameModal
        item={renaming}
        onClose={() => setRenaming(null)}
        onRenamed={(id, title) => {
          pages.update(id, { title });
          setRenaming(null);
        }}
      />
    </div>
  );
}

function RenameModal({ item, onClose, onRenamed }: { item: TDialogueItem | null; onClose: () => void; onRenamed: (id: string, title: string) => void }) {
  const { t } = useTranslation("chat");
  const [form] = Form.useForm<{ title: string }>();
  // A refusal belongs to the title field.
  const { run: rename, busy: saving } = useMutation(
    async (id: string, title: string) => {
      await apiRequest(`/api/v1/dialogues/${encodeURIComponent(id)}`, { method: "PUT", body: { title }, json: true });
      onRenamed(id, title);
    },
    {
      onError: (err) => {
        form.setFields([{ name: "title", errors: [errorText(err, t("error.network"))] }]);
        return true;
      },
    },
  );
  const save = async () => {
    if (!item) return;
    const { title } = await form.validateFields();
    await rename(item.id, title.trim());
  };
  return (
    <Modal
      open={Boolean(item)}
      title={t("history_page.rename")}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ "data-testid": "rename-ok" } as ButtonProps}
    >
      <Form key={item?.id} form={form} layout="vertical" initialValues={{ title: item?.title ?? "" }} onFinish={() => void save()}>
        <Form.Item
          name="title"
          label={t("history_page.title_label")}
          rules={[
            { required: true, whitespace: true, message: t("validation.required", { ns: "errors" }) },
            { max: 50, message: t("validation.too_long", { ns: "errors" }) },
          ]}
        >
          <Input maxLength={50} autoFocus data-testid="rename-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
