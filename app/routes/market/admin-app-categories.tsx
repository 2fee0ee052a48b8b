// /admin/app_categories: platform administrators name the market's categories in the four
// languages and order them; a sort order already taken is refused ("ranking cannot repeat").
import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { App, Button, Form, Input, InputNumber, Modal, Popconfirm, Space, Table, type ButtonProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, fieldErrorsOf } from "../../lib/api-client";
import { requirePageRole } from "../../lib/auth.server";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { listCategoriesForAdmin } from "../../../server/market/market-admin.service";
import { MARKET_LANGUAGES, type TCategoryFormValues, type TCategoryView } from "../../../server/market/market.schema";
import "../../components/market/market.css";

export const handle = { i18n: ["market"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requirePageRole(request, "platform_admin");
  return { categories: await listCategoriesForAdmin(account) };
}

type TValues = TCategoryFormValues;

export default function AdminAppCategories() {
  const { t } = useTranslation("market");
  const { message } = App.useApp();
  const revalidator = useRevalidator();
  const { categories } = useLoaderData<typeof loader>();
  const [editing, setEditing] = useState<TCategoryView | "new" | null>(null);

  const { run: remove } = useMutation(async (id: number) => {
    await callTrpc(() => trpc.market.admin.deleteCategory.mutate({ id }));
    message.success(t("admin.deleted"));
    revalidator.revalidate();
  });

  return (
    <div className="console__page" data-testid="admin-categories">
      <div className="mk-section__head">
        <h1 className="console__title">{t("admin.categories_title")}</h1>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="category-add">
          {t("admin.add_category")}
        </Button>
      </div>
      <p className="console__hint">{t("admin.categories_hint")}</p>
      <Table
        rowKey="id"
        size="middle"
        pagination={false}
        scroll={{ x: 640 }}
        dataSource={categories}
        columns={[
          { title: t("admin.sort_order"), dataIndex: "sortOrder", width: 100 },
          ...MARKET_LANGUAGES.map((l) => ({ title: t(`admin.name_${l}`), key: l, render: (_: unknown, c: TCategoryView) => c.names[l] })),
          {
            title: t("admin.actions"),
            key: "actions",
            width: 180,
            render: (_: unknown, c: TCategoryView) => (
              <Space>
                <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(c)} data-testid="category-edit">
                  {t("admin.edit")}
                </Button>
                <Popconfirm title={t("admin.delete_category_confirm")} onConfirm={() => void remove(c.id)}>
                  <Button size="small" danger icon={<DeleteOutlined />}>
                    {t("admin.delete")}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <CategoryModal
        editing={editing}
        nextOrder={Math.max(0, ...categories.map((c) => c.sortOrder)) + 10}
        onClose={() => setEditing(null)}
        onSaved={() => (setEditing(null), revalidator.revalidate())}
      />
    </div>
  );
}

function CategoryModal({
  editing,
  nextOrder,
  onClose,
  onSaved,
}: {
  editing: TCategoryView | "new" | null;
  nextOrder: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation("market");
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const initial: TValues =
    editing && editing !== "new" ? { names: editing.names, sortOrder: editing.sortOrder } : { names: { zh_hans: "" }, sortOrder: nextOrder };

  const save = useMutation(
    async (values: TValues) => {
      if (editing === "new") await callTrpc(() => trpc.market.admin.createCategory.mutate(values));
      else if (editing) await callTrpc(() => trpc.market.admin.updateCategory.mutate({ id: editing.id, ...values }));
      message.success(t("admin.saved"));
      onSaved();
    },
    {
      onError: (err) => {
        const fields = fieldErrorsOf(err);
        if (fields.length) form.setFields(fields.map((f) => ({ name: f.path.split(".") as never, errors: [f.message] })));
        else if (err instanceof ApiError && err.status === 420034) form.setFields([{ name: "sortOrder", errors: [err.description] }]);
      },
    },
  );
  const busy = save.busy;
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (values) await save.run(values);
  };

  return (
    <Modal
      open={editing !== null}
      title={t(editing === "new" ? "admin.add_category" : "admin.edit_category")}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      destroyOnHidden
      okButtonProps={{ "data-testid": "category-save" } as ButtonProps}
    >
      <Form form={form} layout="vertical" initialValues={initial} preserve={false}>
        {MARKET_LANGUAGES.map((l) => (
          <Form.Item
            key={l}
            name={["names", l]}
            label={t(`admin.name_${l}`)}
            rules={l === "zh_hans" ? [{ required: true, whitespace: true, message: t("admin.name_required") }] : []}
          >
            <Input maxLength={l.startsWith("zh") ? 20 : 40} data-testid={`category-name-${l}`} />
          </Form.Item>
        ))}
        <Form.Item
          name="sortOrder"
          label={t("admin.sort_order")}
          extra={t("admin.sort_order_hint")}
          rules={[{ required: true, message: t("admin.sort_order_required") }]}
        >
          <InputNumber min={0} max={1_000_000} precision={0} style={{ width: "100%" }} data-testid="category-sort" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
