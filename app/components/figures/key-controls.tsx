// The key's settings as the creator moves them: the colour (a picker, or a click on the picture),
// similarity and blend in hundredths as ffmpeg colorkey takes them, and what the preview shows
// behind the figure. Every change reaches the preview at once.
import { Radio } from "antd";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { TKeySettings } from "../../../server/digital/digital.schema";
import type { TPreviewBackground } from "./key-preview";

function RangeField({ name, value, min, onChange }: { name: "similarity" | "blend"; value: number; min: number; onChange: (value: number) => void }) {
  const { t } = useTranslation("figures");
  const id = useId();
  return (
    <div className="figures-field">
      <label htmlFor={id} className="figures-field__label figures-field__label--spread">
        <span>{t(`key.${name}`)}</span>
        <output htmlFor={id} data-testid={`key-${name}-value`}>
          {(value / 100).toFixed(2)}
        </output>
      </label>
      <input
        id={id}
        type="range"
        className="figures-range"
        min={min}
        max={100}
        step={1}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        data-testid={`key-${name}`}
      />
      <div className="figures-field__hint">{t(`key.${name}_hint`)}</div>
    </div>
  );
}

export function KeyControls({
  settings,
  onChange,
  background,
  onBackground,
}: {
  settings: TKeySettings;
  onChange: (next: TKeySettings) => void;
  background: TPreviewBackground;
  onBackground: (next: TPreviewBackground) => void;
}) {
  const { t } = useTranslation("figures");
  const colorId = useId();
  const backdropId = useId();
  return (
    <div className="figures-controls" data-testid="key-controls">
      <div className="figures-field">
        <label htmlFor={colorId} className="figures-field__label">
          {t("key.color")}
        </label>
        <div className="figures-field__row">
          <input
            id={colorId}
            type="color"
            className="figures-color"
            value={settings.color}
            onChange={(e) => onChange({ ...settings, color: e.target.value.toLowerCase() })}
            data-testid="key-color"
          />
          <code className="figures-color__hex" data-testid="key-color-value">
            {settings.color}
          </code>
        </div>
        <div className="figures-field__hint">{t("key.color_hint")}</div>
      </div>
      <RangeField name="similarity" value={settings.similarity} min={1} onChange={(similarity) => onChange({ ...settings, similarity })} />
      <RangeField name="blend" value={settings.blend} min={0} onChange={(blend) => onChange({ ...settings, blend })} />
      <div className="figures-field">
        <span className="figures-field__label">{t("key.backdrop")}</span>
        <div className="figures-field__row">
          <Radio.Group
            value={background.kind}
            onChange={(e) => onBackground(e.target.value === "checker" ? { kind: "checker" } : { kind: "color", color: "#ffffff" })}
            optionType="button"
            size="small"
            options={[
              { value: "checker", label: t("key.backdrop_checker") },
              { value: "color", label: t("key.backdrop_color") },
            ]}
          />
          {background.kind === "color" && (
            <input
              id={backdropId}
              type="color"
              className="figures-color"
              aria-label={t("key.backdrop_color")}
              value={background.color}
              onChange={(e) => onBackground({ kind: "color", color: e.target.value })}
              data-testid="key-backdrop-color"
            />
          )}
        </div>
      </div>
    </div>
  );
}
