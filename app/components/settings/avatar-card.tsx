import { UploadOutlined, UserOutlined } from "@ant-design/icons";
import { useRevalidator } from "@remix-run/react";
import { App, Avatar, Button, Card, Space, Typography, Upload } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useImageUpload } from "../ui/use-image-upload";
import { AVATAR_LIMITS, IMAGE_ACCEPT } from "../../../server/uploads/upload-limits";

/** The account's picture: JPG or PNG, up to 5 MB, 300-5000 px a side; the server decides. */
export function AvatarCard({ avatarUrl }: { avatarUrl: string | null }) {
  const { t } = useTranslation("auth");
  const { message } = App.useApp();
  const [url, setUrl] = useState(avatarUrl);
  const revalidator = useRevalidator();
  const { busy, beforeUpload, customRequest } = useImageUpload<{ avatarUrl: string }>("/api/v1/account/avatar", AVATAR_LIMITS.maxBytes, (res) => {
    setUrl(res.avatarUrl);
    message.success(t("settings.avatar_saved"));
    // The console header shows the avatar too.
    revalidator.revalidate();
  });

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
