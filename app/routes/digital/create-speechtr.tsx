// /Createspeechtr: a personal voice (50-90 seconds) from a recording of the owner reading a script,
// or from a file. It takes a slot of a personal voice package: without one, the package comes first.
import { ArrowLeftOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { VoiceCreateForm } from "../../components/voices/voice-create-form";
import "../../components/voices/voices.css";

export const handle = { i18n: ["voices"] };

export default function CreateSpeechtrPage() {
  const { t } = useTranslation("voices");
  return (
    <div className="voices-page voices-page--form" data-testid="create-speechtr-page">
      <AppLink to="/speechtr">
        <Button type="link" icon={<ArrowLeftOutlined />} className="voices-page__back">
          {t("actions.back")}
        </Button>
      </AppLink>
      <h1 className="console__title">{t("title.create_personal")}</h1>
      <p className="console__hint">{t("intro.create_personal")}</p>
      <VoiceCreateForm kind="personal" />
    </div>
  );
}
