// /admin/certifications: platform administrators review developer certification applications.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { App, Button, Card, Descriptions, Empty, Form, Image, Input, Modal, Space, Typography, type ButtonProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LocalDate } from "../../components/ui/local-date";
import { requirePageRole } from "../../lib/auth.server";
import { apiRequest } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { zodRule } from "../../lib/zod-rule";
import { listCertificationsForReview } from "../../../server/accounts/certification.service";
import { ZRejectCertificationInput, type TCertificationForReview } from "../../../server/accounts/certification.schema";

export const handle = { i18n: ["auth"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requirePageRole(request, "platform_admin");
  return { items: await listCertificationsForReview(account, { status: "pending" }) };
}

export default function CertificationReview() {
  const { t } = useTranslation("auth");
  const { items } = useLoaderData<typeof loader>();
  const [done, setDone] = useState<string[]>([]);
  const revalidator = useRevalidator();
  const [rejecting, setRejecting] = useState<TCertificationForReview | null>(null);
  const pending = items.filter((i) => !done.includes(i.id));
  const finish = (id: string) => {
    setDone((d) => [...d, id]);
    revalidator.revalidate();
  };

  return (
    <div className="console__page" data-testid="certification-review">
      <h1 className="console__title">{t("admin.certifications.title")}</h1>
      {pending.length === 0 ? (
        <Card>
          <Empty description={t("admin.certifications.empty")} data-testid="certification-review-empty" />
        </Card>
      ) : (
        <Space direction="vertical" size={16} style={{ width: "100%" }}>
          {pending.map((item) => (
            <ApplicationCard key={item.id} item={item} onApproved={() => finish(item.id)} onReject={() => setRejecting(item)} />
          ))}
        </Space>
      )}
      <RejectModal
        item={rejecting}
        onClose={() => setRejecting(null)}
        onRejected={(id) => {
          setRejecting(null);
          finish(id);
        }}
      />
    </div>
  );
}

function ApplicationCard({ item, onApproved, onReject }: { item: TCertificationForReview; onApproved: () => void; onReject: () => void }) {
  const { t } = useTranslation("auth");
  const { message, modal } = App.useApp();
  const { run: approveNow } = useMutation(async () => {
    await apiRequest(`/api/v1/admin/certifications/${encodeURIComponent(item.id)}/approve`, { body: {} });
    message.success(t("admin.certifications.approved"));
    onApproved();
  });
  const approve = () =>
    modal.confirm({
      title: t("admin.certifications.approve_confirm", { name: item.real_name }),
      okButtonProps: { "data-testid": "certification-approve-ok" } as ButtonProps,
      onOk: () => approveNow(),
    });
  const pictures = [
    { url: item.avatar_photo_url, label: t("certification.avatar_photo") },
    { url: item.id_front_url, label: t("certification.id_front") },
    { url: item.id_back_url, label: t("certification.id_back") },
  ];
  return (
    <Card
      title={`${item.nickname} (${item.account})`}
      data-testid="certification-application"
      data-account={item.account}
      extra={
        <Space>
          <Button onClick={onReject} danger data-testid="certification-reject">
            {t("admin.certifications.reject")}
          </Button>
          <Button type="primary" onClick={approve} data-testid="certification-approve">
            {t("admin.certifications.approve")}
          </Button>
        </Space>
      }
    >
      <Descriptions column={{ xs: 1, sm: 2 }} size="small">
        <Descriptions.Item label={t("admin.certifications.applicant")}>{item.account}</Descriptions.Item>
        <Descriptions.Item label={t("admin.certifications.real_name")}>{item.real_name}</Descriptions.Item>
        <Descriptions.Item label={t("admin.certifications.id_number")}>{item.id_number_hint}</Descriptions.Item>
        <Descriptions.Item label={t("admin.certifications.submitted_at")}>
          <LocalDate iso={item.created_at} withTime />
        </Descriptions.Item>
        <Descriptions.Item label={t("admin.certifications.certificate")}>
          {item.certificate_url ? (
            <Typography.Link href={item.certificate_url} target="_blank" rel="noreferrer">
              {t("admin.certifications.open_certificate")}
            </Typography.Link>
          ) : (
            t("admin.certifications.no_certificate")
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t("admin.certifications.introduction")} span={2}>
          <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }}>{item.introduction}</Typography.Paragraph>
        </Descriptions.Item>
      </Descriptions>
      <Image.PreviewGroup>
        <Space wrap size={12} style={{ marginTop: 12 }}>
          {pictures.map((p) => (
            <figure key={p.url} style={{ margin: 0, textAlign: "center" }}>
              <Image src={p.url} alt={p.label} width={160} height={120} style={{ objectFit: "cover", borderRadius: 8 }} data-testid="certification-image" />
              <figcaption className="console__hint">{p.label}</figcaption>
            </figure>
          ))}
        </Space>
      </Image.PreviewGroup>
    </Card>
  );
}

function RejectModal({ item, onClose, onRejected }: { item: TCertificationForReview | null; onClose: () => void; onRejected: (id: string) => void }) {
  const { t } = useTranslation("auth");
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const { run: reject, busy } = useMutation(async (id: string, reason: string) => {
    await apiRequest(`/api/v1/admin/certifications/${encodeURIComponent(id)}/reject`, { body: { reason } });
    message.success(t("admin.certifications.rejected"));
    form.resetFields();
    onRejected(id);
  });
  const submit = async () => {
    if (!item) return;
    // The form shows its own errors; a refused validation is not a failure of the page.
    const values = await form.validateFields().catch(() => null);
    if (values) await reject(item.id, values.reason);
  };
  return (
    <Modal
      open={Boolean(item)}
      title={t("admin.certifications.reject_title")}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={busy}
      okButtonProps={{ danger: true, "data-testid": "certification-reject-ok" } as ButtonProps}
    >
      <Form form={form} layout="vertical">
        <Form.Item name="reason" label={t("admin.certifications.reject_reason")} rules={[zodRule(ZRejectCertificationInput.shape.reason, t)]}>
          <Input.TextArea
            rows={3}
            maxLength={200}
            showCount
            placeholder={t("admin.certifications.reject_placeholder")}
            data-testid="certification-reject-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
