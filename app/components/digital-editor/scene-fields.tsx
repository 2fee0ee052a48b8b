// The scene's choices beside the stage: the screen's orientation, the figure (my usable figures, or
// a way to make one) and the voice (my own voices first, then the platform's announcers by family).
import { Alert, Radio, Select, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import { VOICE_FAMILIES, voiceLabelKey } from "../../../server/media/voices";
import type { TOrientation } from "../../../server/digital/digital.schema";
import type { TDigitalVoiceList, TFigureView } from "./editor-client";
import { isTrainedFigure, isUsableFigure } from "./scene";

export function OrientationField({ value, onChange }: { value: TOrientation; onChange: (v: TOrientation) => void }) {
  const { t } = useTranslation("digital");
  return (
    <div className="digital-field">
      <span className="digital-field__label">{t("editor.orientation.label")}</span>
      <Radio.Group
        optionType="button"
        value={value}
        onChange={(e) => onChange(e.target.value as TOrientation)}
        options={[
          { value: "vertical", label: t("editor.orientation.vertical") },
          { value: "horizontal", label: t("editor.orientation.horizontal") },
        ]}
        data-testid="digital-orientation"
      />
    </div>
  );
}

export function FigureField({ figures, value, onChange }: { figures: TFigureView[]; value: string | null; onChange: (id: string) => void }) {
  const { t } = useTranslation("digital");
  const usable = figures.filter(isUsableFigure);
  const waiting = figures.filter((f) => f.state === "checking").length;
  return (
    <div className="digital-field" data-testid="digital-figure-field">
      <span className="digital-field__label">{t("editor.figure.label")}</span>
      {usable.length === 0 ? (
        <Alert
          type="info"
          showIcon
          message={t("editor.figure.none")}
          description={
            <>
              {waiting > 0 && <p className="digital-field__note">{t("editor.figure.checking", { count: waiting })}</p>}
              <AppLink to="/Createdigital" data-testid="digital-create-figure">
                {t("editor.figure.create")}
              </AppLink>
            </>
          }
          data-testid="digital-no-figures"
        />
      ) : (
        <>
          <Select
            value={value && usable.some((f) => f.id === value) ? value : undefined}
            placeholder={t("editor.figure.placeholder")}
            onChange={onChange}
            options={usable.map((f) => ({
              value: f.id,
              label: (
                <span className="digital-option">
                  <img src={f.posterUrl ?? ""} alt="" className="digital-option__poster" />
                  <span className="digital-option__name">{f.name}</span>
                  {isTrainedFigure(f) && <Tag color="green">{t("editor.figure.trained")}</Tag>}
                </span>
              ),
              name: f.name,
            }))}
            showSearch
            optionFilterProp="name"
            data-testid="digital-figure"
          />
          <AppLink to="/Createdigital" className="digital-field__link">
            {t("editor.figure.create_another")}
          </AppLink>
        </>
      )}
    </div>
  );
}

export function VoiceField({ voices, value, onChange }: { voices: TDigitalVoiceList; value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation(["digital", "apps"]);
  const mine = voices.mine.filter((v) => v.state === "ready");
  const groups = [
    { label: t("editor.voice.mine"), options: mine.map((v) => ({ value: v.speakerId, label: v.name })) },
    ...VOICE_FAMILIES.map((family) => ({
      label: t(`apps:voice_family.${family}`),
      options: voices.stock.filter((v) => v.family === family).map((v) => ({ value: v.id, label: t(`apps:${voiceLabelKey(v.id)}`) })),
    })),
  ].filter((g) => g.options.length > 0);
  const offered = groups.some((g) => g.options.some((o) => o.value === value));
  const kept = value && !offered ? [{ value, label: t("editor.voice.unavailable") }] : [];
  return (
    <div className="digital-field">
      <span className="digital-field__label">{t("editor.voice.label")}</span>
      <Select
        value={value || undefined}
        placeholder={t("editor.voice.placeholder")}
        onChange={onChange}
        options={[...kept, ...groups]}
        notFoundContent={t("editor.voice.none")}
        showSearch
        optionFilterProp="label"
        data-testid="digital-voice"
      />
      <AppLink to="/speechtr" className="digital-field__link">
        {t("editor.voice.own_link")}
      </AppLink>
    </div>
  );
}
