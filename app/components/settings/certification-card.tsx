import { UploadOutlined } from "@ant-design/icons";
import { Alert, App, Button, Card, Form, Input, Space, Tag, Typography, Upload, type UploadFile, type UploadProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api-client";
import { postFormData } from "../../lib/post-form-data";
import { useMutation } from "../../lib/use-mutation";
import { LocalDate } from "../ui/local-date";
import { zodRule } from "../../lib/zod-rule";
import {
  CERTIFICATE_FIELD,
  CERTIFICATION_IMAGE_FIELDS,
  ZIdNumber,
  ZIntroduction,
  ZRealName,
  type TOwnCertification,
} from "../../../server/accounts/certification.schema";
import { CERTIFICATE_FILE_MAX_BYTES, CERTIFICATION_IMAGE_LIMITS, DOCUMENT_ACCEPT, IMAGE_ACCEPT } from "../../../server/uploads/upload-limits";

type TFileField = (typeof CERTIFICATION_IMAGE_FIELDS)[number] | typeof CERTIFICATE_FIELD;
type TValues = { real_name: string; id_number: string; introduction: string } & Partial<Record<TFileField, UploadFile[]>>;

const STATUS_COLORS = { none: "default", pending: "processing", rejected: "error", approved: "success" } as const;

/** Developer certification: none → form; pending → under review; rejected → reason and apply again; approved → certified. */
export function CertificationCard({ initial }: { initial: TOwnCertification | null }) {
  const { t } = useTranslation("auth");
  const [current, setCurrent] = useState(initial);
  const [applying, setApplying] = useState(false);
  const status = current?.status ?? "none";
  const showForm = status === "none" || (status === "rejected" && applying);

  return (
    <Card
      title={t("certification.title")}
      data-testid="certification-card"
      extra={
        <Tag color={STATUS_COLORS[status]} data-testid="certification-status" data-status={status}>
          {t(`certification.status_${status}`)}
        </Tag>
      }
    >
      {status === "approved" && current && (
        <Typography.Text data-testid="certification-approved">
          {t("certification.approved_body", { name: current.real_name, hint: current.id_number_hint })}
        </Typography.Text>
      )}
      {status === "pending" && current && (
        <Alert
          type="info"
          showIcon
          message={t("certification.pending_body")}
          description={
            <>
              {t("certification.submitted_on")} <LocalDate iso={current.created_at} />
            </>
          }
        />
      )}
      {status === "rejected" && current && !applying && (
        <Alert
          type="error"
          showIcon
          message={t("certification.rejected_body")}
          description={<span data-testid="certification-reason">{t("certification.rejected_reason", { reason: current.reject_reason ?? "" })}</span>}
          action={
            <Button onClick={() => setApplying(true)} data-testid="certification-apply-again">
              {t("certification.apply_again")}
            </Button>
          }
        />
      )}
      {showForm && (
        <CertificationForm
          onSubmitted={(next) => {
            setCurrent(next);
            setApplying(false);
          }}
          onCancel={status === "rejected" ? () => setApplying(false) : undefined}
        />
      )}
    </Card>
  );
}

function CertificationForm({ onSubmitted, onCancel }: { onSubmitted: (c: TOwnCertification) => void; onCancel?: () => void }) {
  const { t } = useTranslation("auth");
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const required = { required: true, message: t("validation.required", { ns: "errors" }) };

  const picker = (field: TFileField, opts: { accept: string; maxBytes: number; kinds: string[] }): UploadProps => ({
    accept: opts.accept,
    maxCount: 1,
    listType: "picture",
    // Kept in the form and sent with it; checked here only for the obvious cases.
    beforeUpload: (file) => {
      if (file.type && !opts.kinds.includes(file.type)) {
        message.error(t(field === CERTIFICATE_FIELD ? "document_type_not_allowed" : "file_type_not_allowed", { ns: "errors" }));
        return Upload.LIST_IGNORE;
      }
      if (file.size > opts.maxBytes) {
        message.error(t("file_too_large", { ns: "errors" }));
        return Upload.LIST_IGNORE;
      }
      return false;
    },
  });
  const imagePicker = (field: TFileField) =>
    picker(field, { accept: IMAGE_ACCEPT, maxBytes: CERTIFICATION_IMAGE_LIMITS.maxBytes, kinds: ["image/jpeg", "image/png"] });

  const send = useMutation(
    async (body: FormData) => {
      onSubmitted(await postFormData<TOwnCertification>("/api/v1/account/certification", body, { fallbackError: t("upload_failed", { ns: "errors" }) }));
      message.success(t("certification.submitted"));
    },
    {
      // The refusal names the file or the fields it is about: the message goes on them too.
      onError: (err) => {
        if (!(err instanceof ApiError)) return;
        const data = err.data as { field?: string; fields?: { path: string; message: string }[] } | null;
        if (data?.field) form.setFields([{ name: data.field as TFileField, errors: [err.description] }]);
        for (const f of data?.fields ?? []) form.setFields([{ name: f.path as keyof TValues, errors: [f.message] }]);
      },
    },
  );
  const busy = send.busy;

  const onFinish = async (values: TValues) => {
    const body = new FormData();
    body.append("real_name", values.real_name);
    body.append("id_number", values.id_number);
    body.append("introduction", values.introduction);
    for (const field of [...CERTIFICATION_IMAGE_FIELDS, CERTIFICATE_FIELD] as TFileField[]) {
      const file = values[field]?.[0]?.originFileObj;
      if (file) body.append(field, file, file.name);
    }
    await send.run(body);
  };

  const fileItem = (field: TFileField, label: string, hint: string, props: UploadProps, isRequired: boolean) => (
    <div data-testid={`certification-${field}`}>
      <Form.Item
        name={field}
        label={label}
        extra={hint}
        valuePropName="fileList"
        getValueFromEvent={(e: { fileList: UploadFile[] }) => e?.fileList}
        rules={isRequired ? [required] : []}
      >
        <Upload {...props}>
          <Button icon={<UploadOutlined />}>{t("certification.choose")}</Button>
        </Upload>
      </Form.Item>
    </div>
  );

  return (
    <Form form={form} layout="vertical" onFinish={onFinish} style={{ maxWidth: 520 }} data-testid="certification-form">
      <p className="console__hint">{t("certification.intro")}</p>
      <Form.Item name="real_name" label={t("certification.real_name")} rules={[zodRule(ZRealName, t)]}>
        <Input maxLength={30} autoComplete="name" data-testid="certification-real-name" />
      </Form.Item>
      <Form.Item name="id_number" label={t("certification.id_number")} rules={[zodRule(ZIdNumber, t)]}>
        <Input maxLength={18} autoComplete="off" data-testid="certification-id-number" />
      </Form.Item>
      {fileItem("avatar_photo", t("certification.avatar_photo"), t("certification.image_hint"), imagePicker("avatar_photo"), true)}
      {fileItem("id_front", t("certification.id_front"), t("certification.image_hint"), imagePicker("id_front"), true)}
      {fileItem("id_back", t("certification.id_back"), t("certification.image_hint"), imagePicker("id_back"), true)}
      {fileItem(
        CERTIFICATE_FIELD,
        t("certification.certificate"),
        t("certification.certificate_hint"),
        picker(CERTIFICATE_FIELD, { accept: DOCUMENT_ACCEPT, maxBytes: CERTIFICATE_FILE_MAX_BYTES, kinds: ["application/pdf", "image/jpeg", "image/png"] }),
        false,
      )}
      <Form.Item name="introduction" label={t("certification.introduction")} rules={[zodRule(ZIntroduction, t)]}>
        <Input.TextArea rows={4} maxLength={500} showCount placeholder={t("certification.introduction_placeholder")} data-testid="certification-introduction" />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="certification-submit">
          {t("certification.submit")}
        </Button>
        {onCancel && <Button onClick={onCancel}>{t("certification.cancel")}</Button>}
      </Space>
    </Form>
  );
}
