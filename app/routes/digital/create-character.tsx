// /CreateCharacter?id=<figure>: the keying editor. The figure's clip plays keyed live in the page
// (the same formula as the worker's ffmpeg colorkey) while the colour, similarity and blend move;
// saving keeps the settings and has the worker make the figure's keyed still again, then goes back
// to /digital.
import { ArrowLeftOutlined, SaveOutlined, UndoOutlined } from "@ant-design/icons";
import { useSearchParams } from "@remix-run/react";
import { Alert, App, Button, Skeleton } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink, useAppNavigate } from "../../components/app-link";
import { FigureStateTag } from "../../components/figures/figure-state-tag";
import { figuresApi, type TFigureView } from "../../components/figures/figures-client";
import { KeyControls } from "../../components/figures/key-controls";
import { KeyPreview, type TPreviewBackground } from "../../components/figures/key-preview";
import { useFigure } from "../../components/figures/use-figure";
import { useMutation } from "../../lib/use-mutation";
import type { TKeySettings } from "../../../server/digital/digital.schema";
import "../../components/figures/figures.css";

export const handle = { i18n: ["figures"] };

const USABLE = ["ready", "training", "train_failed"];

function Editor({ figure }: { figure: TFigureView }) {
  const { t } = useTranslation("figures");
  const { message } = App.useApp();
  const navigate = useAppNavigate();
  const [settings, setSettings] = useState<TKeySettings>(figure.key);
  const [background, setBackground] = useState<TPreviewBackground>({ kind: "checker" });
  // Another figure (or settings saved elsewhere) starts from its own key; polling the same figure changes nothing.
  const { color, similarity, blend } = figure.key;
  useEffect(() => setSettings({ color, similarity, blend }), [figure.id, color, similarity, blend]);
  const save = useMutation(async () => {
    await figuresApi.saveKey(figure.id, settings);
    void message.success(t("key.saved"));
    navigate("/digital");
  });
  const changed = settings.color !== figure.key.color || settings.similarity !== figure.key.similarity || settings.blend !== figure.key.blend;
  return (
    <div className="figures-editor" data-testid="key-editor" data-id={figure.id}>
      <div className="figures-editor__preview">
        <KeyPreview
          src={figure.loopUrl ?? figure.sourceUrl ?? ""}
          settings={settings}
          background={background}
          onPick={(color) => setSettings((s) => ({ ...s, color }))}
        />
      </div>
      <div className="figures-editor__side figures-panel">
        <KeyControls settings={settings} onChange={setSettings} background={background} onBackground={setBackground} />
        <div className="figures-editor__buttons">
          <Button icon={<UndoOutlined />} onClick={() => setSettings(figure.key)} disabled={!changed} data-testid="key-reset">
            {t("key.reset")}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} loading={save.busy} onClick={() => void save.run()} data-testid="key-save">
            {t("key.save")}
          </Button>
        </div>
        <p className="figures-field__hint">{t("key.save_note")}</p>
      </div>
    </div>
  );
}

export default function CreateCharacterPage() {
  const { t } = useTranslation("figures");
  const [params] = useSearchParams();
  const { figure, error, loading } = useFigure(params.get("id") || null);
  let body;
  if (loading) body = <Skeleton active />;
  else if (!figure) body = <Alert type="error" showIcon message={error ?? t("key.choose_first")} data-testid="figure-missing" />;
  else if (!USABLE.includes(figure.state)) body = <Alert type="warning" showIcon message={t("key.not_ready")} data-testid="figure-not-ready" />;
  else body = <Editor figure={figure} />;
  return (
    <div className="figures-page" data-testid="create-character-page">
      <div className="figures-page__head">
        <h1 className="console__title">
          {t("title.key")}
          {figure && <span className="figures-page__name"> · {figure.name}</span>}
        </h1>
        {figure && <FigureStateTag figure={figure} />}
        <AppLink to="/digital">
          <Button icon={<ArrowLeftOutlined />}>{t("list.back")}</Button>
        </AppLink>
      </div>
      <p className="console__hint">{t("intro.key")}</p>
      {body}
    </div>
  );
}
