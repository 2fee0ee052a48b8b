// Preview, rename and delete as every library view offers them: the dialogs and their handlers.
import { App } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { displayFileName } from "../../lib/file-name";
import { useMutation } from "../../lib/use-mutation";
import { deleteMediaItem, type TMediaItem } from "./media-client";
import { MediaPreview } from "./media-preview";
import { RenameModal } from "./rename-modal";

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
          onClose={() => setRenaming(null)}
          onRenamed={() => {
            setRenaming(null);
            message.success(t("renamed"));
            void reload();
          }}
        />
      </>
    ),
  };
}
