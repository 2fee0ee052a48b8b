// The agent's avatar as a form control: uploads the picture (same checks as account avatars) and
// holds the returned URL as the field's value.
import { RobotOutlined, UploadOutlined } from "@ant-design/icons";
import { Avatar, Button, Space, Typography, Upload } from "antd";
import { useTranslation } from "react-i18next";
import { useImageUpload } from "../ui/use-image-upload";
import { AVATAR_LIMITS, IMAGE_ACCEPT } from "../../../server/uploads/upload-limits";

export function AvatarField({ value, onChange, disabled }: { value?: string; onChange?: (url: string) => void; disabled?: boolean }) {
  const { t } = useTranslation("agents");
  const { busy, beforeUpload, customRequest } = useImageUpload<{ url: string }>("/api/v1/uploads/image", AVATAR_LIMITS.maxBytes, (res) => onChange?.(res.url));

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
