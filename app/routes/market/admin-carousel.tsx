// /admin/carousel: platform administrators manage the market's carousel: name, picture
// (uploaded through the upload service), jump link (http(s) or a path of this site), order, shown.
import { DeleteOutlined, EditOutlined, PictureOutlined, PlusOutlined, UploadOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { App, Button, Form, Input, InputNumber, Modal, Popconfirm, Space, Switch, Table, Upload, type ButtonProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useImageUpload } from "../../components/ui/use-image-upload";
import { fieldErrorsOf } from "../../lib/api-client";
import { requirePageRole } from "../../lib/auth.server";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { zodRule } from "../../lib/zod-rule";
import { listCarouselForAdmin } from "../../../server/market/market-admin.service";
import { ZCarouselInput, type TCarouselView } from "../../../server/market/market.schema";
import { AVATAR_LIMITS, IMAGE_ACCEPT } from "../../../server/uploads/upload-limits";
import "../../components/market/market.css";

export const handle = { i18n: ["market"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requirePageRole(request, "platform_admin");
  return { slides: await listCarouselForAdmin(account) };
}

type TValues = Omit<TCarouselView, "id">;

export default function AdminCarousel() {
  const { t } = useTranslation("market");
  const { message } = App.useApp();
  const revalidator = useRevalidator();
  const { slides } = useLoaderData<typeof loader>();
  const [editing, setEditing] = useState<TCarouselView | "new" | null>(null);

  const { run: save } = useMutation(async (s: TCarouselView, patch: Partial<TValues>) => {
    await callTrpc(() => trpc.market.admin.updateCarousel.mutate({ ...s, ...patch }));
    revalidator.revalidate();
  });
  const { run: remove } = useMutation(async (id: number) => {
    await callTrpc(() => trpc.market.admin.deleteCarousel.mutate({ id }));
    message.success(t("admin.deleted"));
    revalidator.revalidate();
  });

  return (
    <div className="console__page" data-testid="admin-carousel">
      <div className="mk-section__head">
        <h1 className="console__title">{t("admin.carousel_title")}</h1>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="carousel-add">
          {t("admin.add_slide")}
        </Button>
      </div>
      <p className="console__hint">{t("admin.carousel_hint")}</p>
      <Table
        rowKey="id"
        size="middle"
        pagination={false}
        scroll={{ x: 720 }}
        dataSource={slides}
        locale={{ emptyText: t("admin.no_slides") }}
        columns={[
          { title: t("admin.image"), key: "image", width: 120, render: (_: unknown, s: TCarouselView) => <img className="mk-thumb" src={s.imageUrl} alt="" /> },
          { title: t("admin.slide_name"), dataIndex: "name" },
          { title: t("admin.link"), dataIndex: "link", ellipsis: true, render: (link: string) => link || "—" },
          { title: t("admin.sort_order"), dataIndex: "sortOrder", width: 90 },
          {
            title: t("admin.enabled"),
            key: "enabled",
            width: 90,
            render: (_: unknown, s: TCarouselView) => <Switch size="small" checked={s.enabled} onChange={(enabled) => void save(s, { enabled })} />,
          },
          {
            title: t("admin.actions"),
            key: "actions",
            width: 180,
            render: (_: unknown, s: TCarouselView) => (
              <Space>
                <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(s)}>
                  {t("admin.edit")}
                </Button>
                <Popconfirm title={t("admin.delete_slide_confirm")} onConfirm={() => void remove(s.id)}>
                  <Button size="small" danger icon={<DeleteOutlined />}>
                    {t("admin.delete")}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <SlideModal editing={editing} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), revalidator.revalidate())} />
    </div>
  );
}

function ImageField({ value, onChange }: { value?: string; onChange?: (url: string) => void }) {
  const { t } = useTranslation("market");
  const { busy, beforeUpload, customRequest } = useImageUpload<{ url: string }>("/api/v1/uploads/image", AVATAR_LIMITS.maxBytes, (res) => onChange?.(res.url));
  return (
    <Space align="center" wrap>
      {value ? (
        <img className="mk-thumb" src={value} alt="" />
      ) : (
        <span className="mk-thumb" style={{ display: "inline-flex", alignItems: "center", justifyContent: "center" }}>
          <PictureOutlined />
        </span>
      )}
      <Upload accept={IMAGE_ACCEPT} showUploadList={false} beforeUpload={beforeUpload} customRequest={customRequest}>
        <Button icon={<UploadOutlined />} loading={busy} data-testid="carousel-upload">
          {t("admin.upload_image")}
        </Button>
      </Upload>
    </Space>
  );
}

function SlideModal({ editing, onClose, onSaved }: { editing: TCarouselView | "new" | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation("market");
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const initial: TValues = editing && editing !== "new" ? editing : { name: "", imageUrl: "", link: "", sortOrder: 0, enabled: true };
  const shape = ZCarouselInput.shape;

  const send = useMutation(
    async (values: TValues) => {
      if (editing === "new") await callTrpc(() => trpc.market.admin.createCarousel.mutate(values));
      else if (editing) await callTrpc(() => trpc.market.admin.updateCarousel.mutate({ id: editing.id, ...values }));
      message.success(t("admin.saved"));
      onSaved();
    },
    {
      onError: (err) => {
        const fields = fieldErrorsOf(err);
        if (fields.length) form.setFields(fields.map((f) => ({ name: f.path as keyof TValues, errors: [f.message] })));
      },
    },
  );
  const busy = send.busy;
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (values) await send.run(values);
  };

  return (
    <Modal
      open={editing !== null}
      title={t(editing === "new" ? "admin.add_slide" : "admin.edit_slide")}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      destroyOnHidden
      okButtonProps={{ "data-testid": "carousel-save" } as ButtonProps}
    >
      <Form form={form} layout="vertical" initialValues={initial} preserve={false}>
        <Form.Item name="name" label={t("admin.slide_name")} rules={[zodRule(shape.name, t)]}>
          <Input maxLength={50} data-testid="carousel-name" />
        </Form.Item>
        <Form.Item name="imageUrl" label={t("admin.image")} extra={t("admin.image_hint")} rules={[zodRule(shape.imageUrl, t)]}>
          <ImageField />
        </Form.Item>
        <Form.Item name="link" label={t("admin.link")} extra={t("admin.link_hint")} rules={[zodRule(shape.link, t)]}>
          <Input maxLength={500} placeholder="https://… / /app_store" data-testid="carousel-link" />
        </Form.Item>
        <Space size={24}>
          <Form.Item name="sortOrder" label={t("admin.sort_order")}>
            <InputNumber min={0} max={1_000_000} precision={0} />
          </Form.Item>
          <Form.Item name="enabled" label={t("admin.enabled")} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
