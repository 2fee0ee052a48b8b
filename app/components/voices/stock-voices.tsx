// The platform's announcers the account's speech models offer, by family. No sample to listen to:
// each would be a paid synthesis, so the list names them only.
import { SoundOutlined } from "@ant-design/icons";
import { Empty, Tag } from "antd";
import { useTranslation } from "react-i18next";
import type { TDigitalVoiceList } from "./voices-client";

export function StockVoices({ voices }: { voices: TDigitalVoiceList["stock"] }) {
  const { t } = useTranslation("voices");
  const { t: ta } = useTranslation("apps");
  if (!voices.length) return <Empty description={t("stock.empty")} data-testid="voice-stock-empty" />;
  return (
    <ul className="voice-stock" data-testid="voice-stock">
      {voices.map((v) => (
        <li key={`${v.family}:${v.id}`} className="voice-stock__item" data-testid="voice-stock-item" data-voice={v.id}>
          <SoundOutlined className="voice-stock__icon" />
          <span className="voice-stock__name">{ta(`voices.${v.id}`, { defaultValue: v.id })}</span>
          <Tag className="voice-stock__family">{t(`stock.family.${v.family}`)}</Tag>
        </li>
      ))}
    </ul>
  );
}
