// An uploaded picture as a form value (icon, background): the upload service checks the content
// and answers the URL the form keeps.
import { PictureOutlined, UploadOutlined } from "@ant-design/icons";
import { Avatar, Button, Space, Typography, Upload } from "antd";
import { useTranslation } from "react-i18next";
import { useImageUpload } from "../../ui/use-image-upload";
import { AVATAR_LIMITS, ICON_LIMITS, IMAGE_ACCEPT } from "../../../../server/uploads/upload-limits";

/** An icon has its own limits (200 px a side will do) and is made 200x200 by the server. */
const UPLOADS = {
  picture: { endpoint: "/api/v1/uploads/image", maxBytes: AVATAR_LIMITS.maxBytes },
  icon: { endpoint: "/api/v1/uploads/image?purpose=icon", maxBytes: ICON_LIMITS.maxBytes },
};

export function ImageField({
  value,
  onChange,
  hint,
  testId,
  purpose = "picture",
}: {
  value?: string | null;
  onChange?: (url: string | null) => void;
  hint: string;
  testId: string;
  purpose?: keyof typeof UPLOADS;
}) {
  const { t } = useTranslation("apps");
  const { endpoint, maxBytes } = UPLOADS[purpose];
  const { busy, beforeUpload, customRequest } = useImageUpload<{ url: string }>(endpoint, maxBytes, (res) => onChange?.(res.url));
  return (
    <Space size={16} align="center" wrap data-testid={testId}>
      <Avatar size={72} shape="square" src={value || undefined} icon={<PictureOutlined />} />
      <Space orientation="vertical" size={4}>
        <Space>
          <Upload accept={IMAGE_ACCEPT} showUploadList={false} beforeUpload={beforeUpload} customRequest={customRequest}>
            <Button icon={<UploadOutlined />} loading={busy} data-testid={`${testId}-upload`}>
              {t("form.upload")}
            </Button>
          </Upload>
          {value && (
            <Button type="link" onClick={() => onChange?.(null)}>
              {t("form.clear")}
            </Button>
          )}
        </Space>
        <Typography.Text type="secondary">{hint}</Typography.Text>
      </Space>
    </Space>
  );
}
