// Preview, rename and delete as every library view offers them: the dialogs and their handlers.
import { App } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { displayFileName } from "../../lib/file-name";
import { useMutation } from "../../lib/use-mutation";
import { MEDIA_NAME_MAX, ZMediaName } from "../../../server/media/media.schema";
import { RenameModal } from "../rename-modal";
import { deleteMediaItem, renameMediaItem, type TMediaItem } from "./media-client";
import { MediaPreview } from "./media-preview";

export function useMediaActions(reload: () => Promise<void>) {
  const { t } = useTranslation("media");
  const { message, modal } = App.useApp();
  const [previewing, setPreviewing] = useState<TMediaItem | null>(null);
  const [renaming, setRenaming] = useState<TMediaItem | null>(null);

  const remove = useMutation(async (item: TMediaItem) => {
    await deleteMediaItem(item.id);
    message.success(t("deleted"));
    await reload();
  });

  const onDelete = (item: TMediaItem) =>
    modal.confirm({
      title: t("delete_confirm", { name: displayFileName(item.name) }),
      okText: t("actions.delete"),
      okButtonProps: { danger: true, "data-testid": "media-delete-confirm" } as never,
      cancelText: t("actions.cancel"),
      onOk: () => remove.run(item),
    });

  return {
    actions: { onPreview: setPreviewing, onRename: setRenaming, onDelete },
    dialogs: (
      <>
        <MediaPreview item={previewing} onClose={() => setPreviewing(null)} />
        <RenameModal
          item={renaming}
          rule={ZMediaName}
          maxLength={MEDIA_NAME_MAX}
          ns="media"
          labelKey="name_label"
          testId="media-rename"
          onRename={async (id, name) => {
            await renameMediaItem(id, name);
            setRenaming(null);
            message.success(t("renamed"));
            void reload();
          }}
          onClose={() => setRenaming(null)}
        />
      </>
    ),
  };
}
