// What is behind the figure: a picture or video of my library, or a plain colour (shown whenever no
// library item is chosen).
import { PictureOutlined } from "@ant-design/icons";
import { Button, ColorPicker } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { MediaThumb } from "../media/media-thumb";
import type { TMediaItem } from "../media/media-client";
import { LibraryPickerModal } from "../media/library-picker-modal";
import type { TBackground } from "./scene";

export const backgroundOfItem = (item: TMediaItem): TBackground => ({
  id: item.id,
  kind: item.kind,
  url: item.kind === "video" ? item.playUrl || item.url : item.url,
  name: item.name,
  thumbUrl: (item.kind === "video" ? item.posterUrl : item.thumbUrl) ?? null,
});

export function BackgroundField({
  background,
  color,
  onBackground,
  onColor,
}: {
  background: TBackground | null;
  color: string;
  onBackground: (b: TBackground | null) => void;
  onColor: (color: string) => void;
}) {
  const { t } = useTranslation("digital");
  const [picking, setPicking] = useState(false);
  return (
    <div className="digital-field" data-testid="digital-background-field">
      <span className="digital-field__label">{t("editor.background.label")}</span>
      <div className="digital-background">
        <div className="digital-background__thumb" style={{ backgroundColor: color }}>
          {background && (
            <MediaThumb
              item={{ kind: background.kind, url: background.url, name: background.name, thumbUrl: background.thumbUrl, posterUrl: background.thumbUrl }}
            />
          )}
        </div>
        <div className="digital-background__actions">
          <span className="digital-background__name" data-testid="digital-background-name">
            {background ? background.name : t("editor.background.colour_only")}
          </span>
          <div className="digital-background__buttons">
            <Button icon={<PictureOutlined />} onClick={() => setPicking(true)} data-testid="digital-background-pick">
              {t("editor.background.pick")}
            </Button>
            {background && (
              <Button onClick={() => onBackground(null)} data-testid="digital-background-clear">
                {t("editor.background.clear")}
              </Button>
            )}
            <ColorPicker
              value={color}
              disabledAlpha
              onChangeComplete={(c) => onColor(c.toHexString().slice(0, 7))}
              showText={() => t("editor.background.colour")}
              data-testid="digital-background-colour"
            />
          </div>
        </div>
      </div>
      <LibraryPickerModal
        open={picking}
        kinds="both"
        texts={{ title: t("editor.background.library_title"), empty: t("editor.background.library_empty"), use: t("editor.background.use") }}
        useTestId="digital-background-use"
        onClose={() => setPicking(false)}
        onPick={(item) => {
          setPicking(false);
          onBackground(backgroundOfItem(item));
        }}
      />
    </div>
  );
}
