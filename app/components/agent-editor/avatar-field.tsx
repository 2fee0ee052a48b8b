// The agent's avatar as a form control: uploads the picture (same checks as account avatars) and
// holds the returned URL as the field's value.
import { RobotOutlined, UploadOutlined } from "@ant-design/icons";
import { App, Avatar, Button, Space, Typography, Upload, type UploadProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api-client";
import { postFormData } from "../../lib/post-form-data";
import { AVATAR_LIMITS, IMAGE_ACCEPT } from "../../../server/uploads/upload-limits";

export function AvatarField({ value, onChange, disabled }: { value?: string; onChange?: (url: string) => void; disabled?: boolean }) {
  const { t } = useTranslation("agents");
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);

  // Early answers for the obvious cases; the server checks the content itself.
  const beforeUpload: UploadProps["beforeUpload"] = (file) => {
    if (file.type && !["image/jpeg", "image/png"].includes(file.type)) {
      message.error(t("file_type_not_allowed", { ns: "errors" }));
      return Upload.LIST_IGNORE;
    }
    if (file.size > AVATAR_LIMITS.maxBytes) {
      message.error(t("file_too_large", { ns: "errors" }));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps["customRequest"] = async ({ file, onSuccess, onError }) => {
    const form = new FormData();
    form.append("file", file as Blob);
    setBusy(true);
    try {
      const res = await postFormData<{ url: string }>("/api/v1/uploads/image", form, { fallbackError: t("upload_failed", { ns: "errors" }) });
      onChange?.(res.url);
      onSuccess?.(res);
    } catch (err) {
      message.error(err instanceof ApiError ? err.description : String(err));
      onError?.(err as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space size={16} align="center" wrap data-testid="agent-avatar">
      <Avatar size={72} shape="square" src={value || undefined} icon={<RobotOutlined />} data-testid="agent-avatar-image" />
      <Space orientation="vertical" size={4}>
        <Upload accept={IMAGE_ACCEPT} showUploadList={false} beforeUpload={beforeUpload} customRequest={customRequest} disabled={disabled}>
          <Button icon={<UploadOutlined />} loading={busy} disabled={disabled}>
            {t("fields.avatar_upload")}
          </Button>
        </Upload>
        <Typography.Text type="secondary" className="agent-editor__hint">
          {t("fields.avatar_hint")}
        </Typography.Text>
      </Space>
    </Space>
  );
}
