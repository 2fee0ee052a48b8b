// Renaming an item: checked as you type with the server's own rule (ZMediaName), the server's
// refusal shown on the field.
import { Form, Input, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useMutation } from "../../lib/use-mutation";
import { MEDIA_NAME_MAX, ZMediaName } from "../../../server/media/media.schema";
import { renameMediaItem, type TMediaItem } from "./media-client";

export function RenameModal({ item, onClose, onRenamed }: { item: TMediaItem | null; onClose: () => void; onRenamed: (item: TMediaItem) => void }) {
  const { t } = useTranslation("media");
  const { t: te } = useTranslation("errors");
  const [name, setName] = useState("");
  const rename = useMutation(async (id: string, next: string) => onRenamed(await renameMediaItem(id, next)), { report: "inline" });
  const { error, setError } = rename;
  useEffect(() => {
    setName(item?.name ?? "");
    setError(null);
  }, [item, setError]);

  const check = (value: string) => {
    const parsed = ZMediaName.safeParse(value);
    return parsed.success ? null : te(parsed.error.issues[0].message);
  };
  const save = async () => {
    if (!item) return;
    const problem = check(name);
    setError(problem);
    if (problem) return;
    await rename.run(item.id, name);
  };
  return (
    <Modal
      open={Boolean(item)}
      title={t("rename_title")}
      okText={t("actions.save")}
      cancelText={t("actions.cancel")}
      onOk={save}
      onCancel={onClose}
      confirmLoading={rename.busy}
      destroyOnHidden
      okButtonProps={{ "data-testid": "media-rename-save" } as never}
    >
      <Form layout="vertical" onFinish={save}>
        <Form.Item label={t("name_label")} validateStatus={error ? "error" : undefined} help={error ?? undefined}>
          <Input
            autoFocus
            value={name}
            maxLength={MEDIA_NAME_MAX + 10}
            showCount={{ formatter: ({ count }) => `${count}/${MEDIA_NAME_MAX}` }}
            onChange={(e) => {
              setName(e.target.value);
              setError(check(e.target.value));
            }}
            onPressEnter={save}
            data-testid="media-rename-input"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
