// The full picture, or the video with its controls, in a dialog: the phone-playable copy and its
// poster frame once the server made them, the original until then.
import { Modal } from "antd";
import { useTranslation } from "react-i18next";
import type { TMediaItem } from "./media-client";

export function MediaPreview({ item, onClose }: { item: TMediaItem | null; onClose: () => void }) {
  const { t } = useTranslation("media");
  return (
    <Modal open={Boolean(item)} title={item?.name} footer={null} onCancel={onClose} width={880} centered destroyOnHidden className="media-preview">
      {item?.kind === "image" && <img className="media-preview__img" src={item.url} alt={item.name} data-testid="media-preview-image" />}
      {item?.kind === "video" && (
        <video
          className="media-preview__video"
          src={item.playUrl || item.url}
          poster={item.posterUrl || undefined}
          controls
          autoPlay
          playsInline
          data-testid="media-preview-video"
        >
          {t("video_unsupported")}
        </video>
      )}
    </Modal>
  );
}
