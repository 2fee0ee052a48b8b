// The app form's digital-human section: the scene's figure, voice and orientation by name, and the way
// to the editor where they are chosen and placed (/CreateAppDigital?app=). The form keeps the
// settings it loaded, so saving the form leaves the scene as the editor saved it.
import { EditOutlined } from "@ant-design/icons";
import { useSearchParams } from "@remix-run/react";
import { Button, Descriptions, Form } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { voiceLabelKey } from "../../../server/media/voices";
import { ownVoiceIdOf } from "../../../server/digital/videos.schema";
import { useAppNavigate } from "../app-link";
import { editorApi, type TDigitalVoiceList, type TFigureView } from "./editor-client";

export const appSceneEditorPath = (appId: string) => `/CreateAppDigital?app=${encodeURIComponent(appId)}`;

function useNames() {
  const [names, setNames] = useState<{ figures: TFigureView[]; voices: TDigitalVoiceList } | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([editorApi.listFigures(), editorApi.listVoices()]).then(
      ([figures, voices]) => live && setNames({ figures: figures.items, voices }),
      () => live && setNames({ figures: [], voices: { mine: [], stock: [] } }),
    );
    return () => {
      live = false;
    };
  }, []);
  return names;
}

export function AppSceneSummary() {
  const { t } = useTranslation("apps");
  const settings = (Form.useWatch("settings", { preserve: true }) ?? {}) as Record<string, unknown>;
  const appId = useSearchParams()[0].get("id");
  const names = useNames();
  const navigate = useAppNavigate();
  const figureId = typeof settings.figure_id === "string" ? settings.figure_id : "";
  const voice = typeof settings.voice_id === "string" ? settings.voice_id : "";
  const ownId = ownVoiceIdOf(voice);
  const missing = names ? t("form.digital_unavailable") : "…";
  const figureName = !figureId ? t("form.digital_none") : (names?.figures.find((f) => f.id === figureId)?.name ?? missing);
  const voiceName = !voice
    ? t("form.digital_none")
    : ownId === null
      ? t(voiceLabelKey(voice))
      : (names?.voices.mine.find((v) => v.id === ownId)?.name ?? missing);

  return (
    <div data-testid="app-digital-scene">
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: "figure", label: t("form.figure"), children: <span data-testid="app-digital-figure">{figureName}</span> },
          { key: "voice", label: t("form.voice"), children: <span data-testid="app-digital-voice">{voiceName}</span> },
          { key: "orientation", label: t("form.orientation"), children: t(`orientation.${settings.orientation === "horizontal" ? "horizontal" : "vertical"}`) },
        ]}
      />
      {appId ? (
        <Button icon={<EditOutlined />} onClick={() => navigate(appSceneEditorPath(appId))} data-testid="app-digital-open-editor">
          {t("form.digital_open_editor")}
        </Button>
      ) : (
        <p className="app-form__muted">{t("form.digital_save_first")}</p>
      )}
    </div>
  );
}
