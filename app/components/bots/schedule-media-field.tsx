// The picture or video of my multimedia library a scheduled message sends after its text (a
// rendered digital-human video, say): chosen in the library's picker, shown with its thumbnail and
// name, and removed with one click. The server checks it is the bot owner's when the schedule is saved.
import { CloseOutlined, PaperClipOutlined } from "@ant-design/icons";
import { Button, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LibraryPickerModal } from "../media/library-picker-modal";
import type { TMediaItem } from "../media/media-client";
import { MediaThumb } from "../media/media-thumb";
import type { TScheduleView } from "./types";

export type TScheduleMediaValue = NonNullable<TScheduleView["media"]>;

const valueOfItem = (item: TMediaItem): TScheduleMediaValue => ({
  id: item.id,
  kind: item.kind,
  name: item.name,
  url: item.url,
  thumbnail_url: (item.kind === "video" ? item.posterUrl : item.thumbUrl) ?? null,
});

/** The chosen item as the library's thumbnail shows one. */
export function ScheduleMediaThumb({ media, className }: { media: TScheduleMediaValue; className: string }) {
  return (
    <div className={className}>
      <MediaThumb item={{ kind: media.kind, url: media.url, name: media.name, thumbUrl: media.thumbnail_url, posterUrl: media.thumbnail_url }} />
    </div>
  );
}

export function ScheduleMediaField({ value, onChange }: { value: TScheduleMediaValue | null; onChange: (value: TScheduleMediaValue | null) => void }) {
  const { t } = useTranslation("bots");
  const [picking, setPicking] = useState(false);
  return (
    <div className="bots-media" data-testid="schedule-media">
      {value && (
        <div className="bots-media__chosen" data-testid="schedule-media-chosen" data-item-id={value.id} data-kind={value.kind}>
          <ScheduleMediaThumb media={value} className="bots-media__thumb" />
          <div className="bots-media__info">
            <span className="bots-media__name" title={value.name} data-testid="schedule-media-name">
              {value.name}
            </span>
            <Typography.Text type="secondary">{t(`schedule.media_kind.${value.kind}`)}</Typography.Text>
          </div>
          <Button type="text" icon={<CloseOutlined />} onClick={() => onChange(null)} data-testid="schedule-media-remove">
            {t("schedule.media_remove")}
          </Button>
        </div>
      )}
      <Button icon={<PaperClipOutlined />} onClick={() => setPicking(true)} data-testid="schedule-media-pick">
        {value ? t("schedule.media_change") : t("schedule.media_pick")}
      </Button>
      <LibraryPickerModal
        open={picking}
        kinds="both"
        texts={{ title: t("schedule.media_library_title"), empty: t("schedule.media_library_empty"), use: t("schedule.media_use") }}
        useTestId="schedule-media-use"
        onClose={() => setPicking(false)}
        onPick={(item) => {
          setPicking(false);
          onChange(valueOfItem(item));
        }}
      />
    </div>
  );
}
