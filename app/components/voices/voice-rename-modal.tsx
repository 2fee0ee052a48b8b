// Renaming a voice: checked as you type with the server's own rule (ZVoiceName), the server's
// refusal shown on the field.
import { Form, Input, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useMutation } from "../../lib/use-mutation";
import { VOICE_NAME_MAX } from "../../../server/digital/digital.schema";
import { ZVoiceName } from "../../../server/digital/voices.schema";
import { voicesApi, type TDigitalVoice } from "./voices-client";

export function checkVoiceName(value: string, te: (key: string) => string) {
  const parsed = ZVoiceName.safeParse(value);
  return parsed.success ? null : te(parsed.error.issues[0].message);
}

export function VoiceRenameModal({ voice, onClose, onRenamed }: { voice: TDigitalVoice | null; onClose: () => void; onRenamed: () => void }) {
  const { t } = useTranslation("voices");
  const { t: te } = useTranslation("errors");
  const [name, setName] = useState("");
  const rename = useMutation(
    async (id: string, next: string) => {
      await voicesApi.rename(id, next);
      onRenamed();
    },
    { report: "inline" },
  );
  const { error, setError } = rename;
  useEffect(() => {
    setName(voice?.name ?? "");
    setError(null);
  }, [voice, setError]);

  const save = async () => {
    if (!voice) return;
    const problem = checkVoiceName(name, te);
    setError(problem);
    if (!problem) await rename.run(voice.id, name);
  };
  return (
    <Modal
      open={Boolean(voice)}
      title={t("rename_title")}
      okText={t("actions.save")}
      cancelText={t("actions.cancel")}
      onOk={save}
      onCancel={onClose}
      confirmLoading={rename.busy}
      destroyOnHidden
      okButtonProps={{ "data-testid": "voice-rename-save" } as never}
    >
      <Form layout="vertical" onFinish={save}>
        <Form.Item label={t("form.name")} validateStatus={error ? "error" : undefined} help={error ?? undefined}>
          <Input
            autoFocus
            value={name}
            maxLength={VOICE_NAME_MAX + 10}
            showCount={{ formatter: ({ count }) => `${count}/${VOICE_NAME_MAX}` }}
            onChange={(e) => {
              setName(e.target.value);
              setError(checkVoiceName(e.target.value, te));
            }}
            onPressEnter={save}
            data-testid="voice-rename-input"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
