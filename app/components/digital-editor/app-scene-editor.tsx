// A digital-human app's scene: the same stage and choices as a video's, kept in the app's settings
// through the app form's own save (apps.update), so the same checks apply. Saved on the button, not
// as it goes: saving a listed app sends it back to review, which should be a choice.
import { SaveOutlined } from "@ant-design/icons";
import { Alert, App, Button } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText, fieldErrorsOf } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { useLeaveGuard } from "../agent-editor/use-leave-guard";
import { AppLink } from "../app-link";
import { backgroundOfItem } from "./background-field";
import { editorApi } from "./editor-client";
import { appSettingsWithScene, sceneOfAppSettings, type TScene } from "./scene";
import { EditorLoading, SceneEditor, useEditorChoices, type TEditorChoices } from "./scene-editor";
import { SaveIndicator } from "./save-indicator";

type TLoadedApp = Awaited<ReturnType<typeof editorApi.getApp>>;

export function AppSceneEditor({ appId }: { appId: string }) {
  const { t } = useTranslation("digital");
  const { choices, error: choicesError } = useEditorChoices();
  const [loaded, setLoaded] = useState<{ app: TLoadedApp; scene: TScene } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      const app = await editorApi.getApp(appId);
      const { scene, backgroundItemId } = sceneOfAppSettings(app.input.settings ?? {});
      // A background item deleted since shows as the colour; saving then forgets it.
      const item = backgroundItemId ? await editorApi.getMediaItem(backgroundItemId).catch(() => null) : null;
      return { app, scene: { ...scene, background: item ? backgroundOfItem(item) : null } };
    })().then(
      (l) => live && setLoaded(l),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [appId]);

  if (loaded && loaded.app.type !== "digital_human")
    return <Alert type="warning" showIcon message={t("editor.app.not_digital")} data-testid="digital-editor-error" />;
  if (!loaded || !choices) return <EditorLoading error={error ?? choicesError} />;
  return <LoadedAppSceneEditor key={loaded.app.id} app={loaded.app} initial={loaded.scene} choices={choices} />;
}

function LoadedAppSceneEditor({ app, initial, choices }: { app: TLoadedApp; initial: TScene; choices: TEditorChoices }) {
  const { t } = useTranslation(["digital", "apps"]);
  const { message } = App.useApp();
  const [scene, setScene] = useState(initial);
  const [saved, setSaved] = useState(app);
  const [dirty, setDirty] = useState(false);
  const guard = useLeaveGuard(dirty);

  const save = useMutation(
    async () => {
      const input = saved.input;
      const next = await editorApi.updateApp(saved.id, { ...input, settings: appSettingsWithScene(input.settings ?? {}, scene) });
      guard.release();
      setSaved(next);
      setDirty(false);
      message.success(t("editor.app.saved"));
    },
    {
      // The app's other fields are checked too; one refused there is fixed on the app form.
      onError: (err) => {
        const field = fieldErrorsOf(err)[0];
        if (field) message.error(t("editor.app.fix_on_form", { message: field.message }));
        return Boolean(field);
      },
    },
  );

  const toolbar = (
    <div className="digital-toolbar">
      <span className="digital-toolbar__title" data-testid="digital-app-name">
        {saved.name}
      </span>
      <SaveIndicator state={save.busy ? "saving" : dirty ? "pending" : "saved"} />
      <Button type="primary" icon={<SaveOutlined />} loading={save.busy} disabled={!dirty} onClick={() => void save.run()} data-testid="digital-app-save">
        {t("editor.app.save")}
      </Button>
    </div>
  );

  return (
    <>
      {saved.state === "on_shelf" && <Alert type="warning" showIcon className="digital-notice" message={t("apps:form.listed_edit_notice")} />}
      <SceneEditor
        scene={scene}
        choices={choices}
        onChange={(patch) => {
          setScene((s) => ({ ...s, ...patch }));
          setDirty(true);
        }}
        toolbar={toolbar}
      >
        <div className="digital-panel">
          <p className="digital-field__note">{t("editor.app.hint")}</p>
          <AppLink to={`/create_app?id=${encodeURIComponent(saved.id)}&type=digital_human`} data-testid="digital-app-form-link">
            {t("editor.app.form_link")}
          </AppLink>
        </div>
      </SceneEditor>
    </>
  );
}
