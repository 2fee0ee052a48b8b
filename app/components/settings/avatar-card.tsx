import { UploadOutlined, UserOutlined } from "@ant-design/icons";
import { useRevalidator } from "@remix-run/react";
import { App, Avatar, Button, Card, Space, Typography, Upload, type UploadProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api-client";
import { postFormData } from "../../lib/post-form-data";
import { AVATAR_LIMITS, IMAGE_ACCEPT } from "../../../server/uploads/upload-limits";

/** The account's picture: JPG or PNG, up to 5 MB, 300-5000 px a side (SPEC 5); the server decides. */
export function AvatarCard({ avatarUrl }: { avatarUrl: string | null }) {
  const { t } = useTranslation("auth");
  const { message } = App.useApp();
  const [url, setUrl] = useState(avatarUrl);
  const [busy, setBusy] = useState(false);
  const revalidator = useRevalidator();

  // Early answers for the obvious cases; the content itself is checked by the server.
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
      const res = await postFormData<{ avatarUrl: string }>("/api/v1/account/avatar", form, { fallbackError: t("upload_failed", { ns: "errors" }) });
      setUrl(res.avatarUrl);
      message.success(t("settings.avatar_saved"));
      // The console header shows the avatar too.
      revalidator.revalidate();
      onSuccess?.(res);
    } catch (err) {
      message.error(err instanceof ApiError ? err.description : String(err));
      onError?.(err as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t("settings.avatar")} data-testid="avatar-card">
      <Space size={24} align="center" wrap>
        <Avatar size={96} src={url ?? undefined} icon={<UserOutlined />} data-testid="avatar-image" />
        <Space direction="vertical" size={8}>
          <Upload accept={IMAGE_ACCEPT} showUploadList={false} beforeUpload={beforeUpload} customRequest={customRequest}>
            <Button icon={<UploadOutlined />} loading={busy} data-testid="avatar-upload">
              {t("settings.avatar_change")}
            </Button>
          </Upload>
          <Typography.Text type="secondary">{t("settings.avatar_hint")}</Typography.Text>
        </Space>
      </Space>
    </Card>
  );
}
