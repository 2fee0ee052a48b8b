// A basic edition's view of the library: the refusal, naming the edition that includes it.
import { PictureOutlined } from "@ant-design/icons";
import { Result } from "antd";
import { useTranslation } from "react-i18next";

export function MediaLocked({ message }: { message: string }) {
  const { t } = useTranslation("media");
  return <Result icon={<PictureOutlined />} title={t("locked.title")} subTitle={<span data-testid="media-locked">{message}</span>} />;
}
