// Rendering a video: the button (after what is typed is saved), the render's progress asked for every
// 1.5 seconds while it runs, then the video playing here with its place in the library and a
// download, or the failure in the catalogue's words and the button again.
import { DownloadOutlined, FolderOpenOutlined, ThunderboltOutlined } from "@ant-design/icons";
import { Alert, Button, Progress } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isFinishedJobState } from "../../../server/media/generation.schema";
import { useMutation } from "../../lib/use-mutation";
import { AppLink } from "../app-link";
import { editorApi, type TVideoProgress } from "./editor-client";

export const PROGRESS_POLL_MS = 1500;

const isRunning = (p: Pick<TVideoProgress, "state"> | null) => Boolean(p?.state && !isFinishedJobState(p.state));

/** The render's progress, asked for again and again while it runs. */
function useRenderProgress(videoId: string, initial: TVideoProgress) {
  const [progress, setProgress] = useState<TVideoProgress>(initial);
  const running = isRunning(progress);
  useEffect(() => {
    if (!running) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    const ask = async () => {
      const next = await editorApi.videoProgress(videoId).catch(() => null);
      if (!live) return;
      if (next) setProgress(next);
      timer = setTimeout(() => void ask(), PROGRESS_POLL_MS);
    };
    timer = setTimeout(() => void ask(), PROGRESS_POLL_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [videoId, running]);
  return { progress, setProgress, running };
}

export function RenderPanel({
  videoId,
  initial,
  blocked,
  beforeRender,
}: {
  videoId: string;
  initial: TVideoProgress;
  /** The quote found something that keeps the video from rendering. */
  blocked: boolean;
  /** Saves what waits; answers false when it could not. */
  beforeRender: () => Promise<boolean>;
}) {
  const { t } = useTranslation(["digital", "errors"]);
  const { progress, setProgress, running } = useRenderProgress(videoId, initial);
  const render = useMutation(async () => {
    if (!(await beforeRender())) throw new Error(t("editor.save.failed"));
    setProgress(await editorApi.renderVideo(videoId));
  });
  const failed = progress.state === "failed" || progress.state === "failed_review";
  const done = progress.state === "done" && progress.output;

  return (
    <div className="digital-panel digital-render" data-testid="digital-render" data-state={progress.state ?? "none"}>
      {running && (
        <div className="digital-render__progress" data-testid="digital-render-progress">
          <span>{progress.step ? t(`render.steps.${progress.step}`) : t(`render.states.${progress.state}`)}</span>
          <Progress percent={progress.progress} size="small" status="active" />
        </div>
      )}
      {failed && (
        <Alert
          type="error"
          showIcon
          message={t("editor.render.failed")}
          description={
            progress.errorCode ? t(`errors:${progress.errorCode}`, { defaultValue: t("editor.render.failed_generic") }) : t("editor.render.failed_generic")
          }
          data-testid="digital-render-error"
        />
      )}
      {done && progress.output && (
        <div className="digital-render__result" data-testid="digital-render-result">
          <video src={progress.output.url} poster={progress.output.posterUrl ?? undefined} controls playsInline preload="metadata" />
          <div className="digital-render__links">
            <AppLink to="/multimedia" data-testid="digital-render-library">
              <FolderOpenOutlined /> {t("editor.render.library")}
            </AppLink>
            <a href={progress.output.url} download data-testid="digital-render-download">
              <DownloadOutlined /> {t("editor.render.download")}
            </a>
          </div>
        </div>
      )}
      <Button
        type="primary"
        icon={<ThunderboltOutlined />}
        loading={render.busy || running}
        disabled={blocked || running}
        onClick={() => void render.run()}
        data-testid="digital-render-button"
      >
        {failed || done ? t("editor.render.again") : t("editor.render.start")}
      </Button>
    </div>
  );
}
