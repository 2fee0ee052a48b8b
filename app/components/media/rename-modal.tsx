// Renaming an item: checked as you type with the server's own rule (ZMediaName), the server's
// refusal shown on the field.
import { Form, Input, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api-client";
import { MEDIA_NAME_MAX, ZMediaName } from "../../../server/media/media.schema";
import { renameMediaItem, type TMediaItem } from "./media-client";

export function RenameModal({ item, onClose, onRenamed }: { item: TMediaItem | null; onClose: () => void; onRenamed: (item: TMediaItem) => void }) {
  const { t } = useTranslation("media");
  const { t: te } = useTranslation("errors");
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setName(item?.name ?? "");
    setError(null);
  }, [item]);

  const check = (value: string) => {
    const parsed = ZMediaName.safeParse(value);
    return parsed.success ? null : te(parsed.error.issues[0].message);
  };
  const save = async () => {
    if (!item) return;
    const problem = check(name);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      onRenamed(await renameMediaItem(item.id, name));
    } catch (err) {
      setError(err instanceof ApiError ? err.description : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={Boolean(item)} title={t("rename_title")} okText={t("actions.save")} cancelText={t("actions.cancel")} onOk={save} onCancel={onClose} confirmLoading={busy} destroyOnHidden okButtonProps={{ "data-testid": "media-rename-save" } as never}>
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
