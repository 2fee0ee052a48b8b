// A digital-human video's editor: the scene, the script and its quote, and the render. Every change is
// saved a moment after it is made; the quote is asked again once it is saved. Opened with no video,
// it makes one and puts its id in the address, so a reload comes back to it.
import { Input } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/api-client";
import { VIDEO_NAME_MAX, type TUpdateVideoInput } from "../../../server/digital/videos.schema";
import { useAppNavigate } from "../app-link";
import { editorApi, type TDigitalVideo, type TVideoQuote } from "./editor-client";
import { RenderPanel } from "./render-panel";
import { SaveIndicator } from "./save-indicator";
import { sceneOfVideo, type TScene } from "./scene";
import { EditorLoading, SceneEditor, useEditorChoices, type TEditorChoices } from "./scene-editor";
import { QuoteBox, ScriptField } from "./script-panel";
import { useAutosave } from "./use-autosave";

export const videoEditorPath = (id: string) => `/CreateAppDigital?video=${encodeURIComponent(id)}`;

/** The video's columns a scene change writes. */
function toUpdate(patch: Partial<TScene>): Omit<TUpdateVideoInput, "id"> {
  return {
    ...(patch.orientation !== undefined && { orientation: patch.orientation }),
    ...(patch.figureId !== undefined && { figureId: patch.figureId }),
    ...(patch.placement !== undefined && { placement: patch.placement }),
    ...(patch.background !== undefined && { backgroundItemId: patch.background?.id ?? null }),
    ...(patch.backgroundColor !== undefined && { backgroundColor: patch.backgroundColor }),
    ...(patch.voice !== undefined && { voice: patch.voice }),
  };
}

export function VideoEditor({ videoId }: { videoId: string | null }) {
  const { t } = useTranslation("digital");
  const navigate = useAppNavigate();
  const { choices, error: choicesError } = useEditorChoices();
  const [video, setVideo] = useState<TDigitalVideo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const creating = useRef(false);

  useEffect(() => {
    if (videoId || creating.current) return;
    creating.current = true;
    const name = t("editor.new_name", { date: new Date().toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" }) }).slice(0, VIDEO_NAME_MAX);
    editorApi.createVideo(name).then(
      (made) => navigate(videoEditorPath(made.id), { replace: true }),
      (err: unknown) => setError(errorText(err)),
    );
  }, [videoId, navigate, t]);

  useEffect(() => {
    if (!videoId) return;
    let live = true;
    setVideo(null);
    editorApi.getVideo(videoId).then(
      (v) => live && setVideo(v),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [videoId]);

  if (!video || !choices) return <EditorLoading error={error ?? choicesError} />;
  return <LoadedVideoEditor key={video.id} video={video} choices={choices} />;
}

function useQuote(videoId: string) {
  const [quote, setQuote] = useState<TVideoQuote | null>(null);
  const [loading, setLoading] = useState(false);
  const asked = useRef(0);
  const refresh = useCallback(() => {
    const n = ++asked.current;
    setLoading(true);
    editorApi.quoteVideo(videoId).then(
      (q) => n === asked.current && (setQuote(q), setLoading(false)),
      () => n === asked.current && setLoading(false),
    );
  }, [videoId]);
  useEffect(refresh, [refresh]);
  return { quote, loading, refresh };
}

function LoadedVideoEditor({ video, choices }: { video: TDigitalVideo; choices: TEditorChoices }) {
  const { t } = useTranslation("digital");
  const [scene, setScene] = useState<TScene>(() => sceneOfVideo(video));
  const [script, setScript] = useState(video.script);
  const [name, setName] = useState(video.name);
  const quote = useQuote(video.id);
  const save = useAutosave<Omit<TUpdateVideoInput, "id">>(async (patch) => void (await editorApi.updateVideo({ id: video.id, ...patch })), quote.refresh);

  const change = (patch: Partial<TScene>) => {
    setScene((s) => ({ ...s, ...patch }));
    save.queue(toUpdate(patch));
  };

  const toolbar = (
    <div className="digital-toolbar">
      <Input
        value={name}
        maxLength={VIDEO_NAME_MAX}
        onChange={(e) => {
          setName(e.target.value);
          if (e.target.value.trim()) save.queue({ name: e.target.value.trim() });
        }}
        aria-label={t("editor.name")}
        className="digital-toolbar__name"
        data-testid="digital-name"
      />
      <SaveIndicator state={save.state} error={save.error} onRetry={() => void save.flush()} />
    </div>
  );

  return (
    <SceneEditor scene={scene} choices={choices} onChange={change} toolbar={toolbar}>
      <div className="digital-panel">
        <ScriptField
          value={script}
          onChange={(next) => {
            setScript(next);
            save.queue({ script: next });
          }}
        />
        <QuoteBox quote={quote.quote} loading={quote.loading} />
      </div>
      <RenderPanel videoId={video.id} initial={video} blocked={!quote.quote || quote.quote.problems.length > 0} beforeRender={save.flush} />
    </SceneEditor>
  );
}
