// /Createvoice: a voice customisation (5-30 seconds) from a short recording or a file, paid per voice
// like a training (held when it starts training, charged when the voice is ready).
import { ArrowLeftOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { VoiceCreateForm } from "../../components/voices/voice-create-form";
import "../../components/voices/voices.css";

export const handle = { i18n: ["voices"] };

export default function CreateVoicePage() {
  const { t } = useTranslation("voices");
  return (
    <div className="voices-page voices-page--form" data-testid="create-voice-page">
      <AppLink to="/speechtr">
        <Button type="link" icon={<ArrowLeftOutlined />} className="voices-page__back">
          {t("actions.back")}
        </Button>
      </AppLink>
      <h1 className="console__title">{t("title.create_custom")}</h1>
      <p className="console__hint">{t("intro.create_custom")}</p>
      <VoiceCreateForm kind="custom" />
    </div>
  );
}
