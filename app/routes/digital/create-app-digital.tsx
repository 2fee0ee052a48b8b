// /CreateAppDigital: the digital-human editor. ?video=<id> edits a video (script, quote, render);
// ?app=<id> edits a digital-human app's scene; with neither, a new video is made and its id put in
// the address. Everything is read and saved through the procedures, which check the ids are mine.
import { useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AppSceneEditor } from "../../components/digital-editor/app-scene-editor";
import { VideoEditor } from "../../components/digital-editor/video-editor";
import "../../components/media/media.css";
import "../../components/digital-editor/digital-editor.css";

export const handle = { i18n: ["digital", "apps", "agents", "media"] };

export default function CreateAppDigitalPage() {
  const { t } = useTranslation("digital");
  const [params] = useSearchParams();
  const appId = params.get("app");
  const videoId = params.get("video");
  return (
    <div className="digital-editor-page" data-testid="digital-editor-page">
      <h1 className="console__title">{appId ? t("editor.title_app") : t("editor.title_video")}</h1>
      <p className="console__hint">{appId ? t("editor.intro_app") : t("editor.intro_video")}</p>
      {appId ? <AppSceneEditor key={appId} appId={appId} /> : <VideoEditor videoId={videoId} />}
    </div>
  );
}
