// The stage with the scene's choices beside it (below it on phones), shared by a video's editor and a
// digital-human app's. `children` are what the mode adds under the choices (the script and render).
import { Alert, Skeleton } from "antd";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/api-client";
import { BackgroundField } from "./background-field";
import { editorApi, type TDigitalVoiceList, type TFigureView } from "./editor-client";
import { EditorStage } from "./editor-stage";
import { FigureField, OrientationField, VoiceField } from "./scene-fields";
import type { TScene } from "./scene";

export type TEditorChoices = { figures: TFigureView[]; voices: TDigitalVoiceList };

/** My figures and voices, read once when the editor opens. */
export function useEditorChoices() {
  const [choices, setChoices] = useState<TEditorChoices | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([editorApi.listFigures(), editorApi.listVoices()]).then(
      ([figures, voices]) => live && setChoices({ figures: figures.items, voices }),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, []);
  return { choices, error };
}

export function SceneEditor({
  scene,
  choices,
  onChange,
  toolbar,
  children,
}: {
  scene: TScene;
  choices: TEditorChoices;
  onChange: (patch: Partial<TScene>) => void;
  /** Shown above the stage (the save state, the name). */
  toolbar?: ReactNode;
  children?: ReactNode;
}) {
  const figure = choices.figures.find((f) => f.id === scene.figureId && f.posterUrl) ?? null;
  return (
    <div className="digital-editor" data-testid="digital-editor">
      <section className="digital-editor__stage">
        {toolbar}
        <OrientationField value={scene.orientation} onChange={(orientation) => onChange({ orientation })} />
        <EditorStage
          orientation={scene.orientation}
          background={scene.background}
          backgroundColor={scene.backgroundColor}
          figure={figure ? { name: figure.name, posterUrl: figure.posterUrl!, orientation: figure.orientation } : null}
          placement={scene.placement}
          onChange={(placement) => onChange({ placement })}
        />
      </section>
      <section className="digital-editor__panels">
        <div className="digital-panel">
          <FigureField figures={choices.figures} value={scene.figureId} onChange={(figureId) => onChange({ figureId })} />
          <VoiceField voices={choices.voices} value={scene.voice} onChange={(voice) => onChange({ voice })} />
          <BackgroundField
            background={scene.background}
            color={scene.backgroundColor}
            onBackground={(background) => onChange({ background })}
            onColor={(backgroundColor) => onChange({ backgroundColor })}
          />
        </div>
        {children}
      </section>
    </div>
  );
}

/** The editor's frame while its data loads, or why it could not. */
export function EditorLoading({ error }: { error: string | null }) {
  const { t } = useTranslation("digital");
  if (error) return <Alert type="error" showIcon message={t("editor.load_failed")} description={error} data-testid="digital-editor-error" />;
  return <Skeleton active paragraph={{ rows: 8 }} />;
}
