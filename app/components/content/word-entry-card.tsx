// Adding sensitive words: typed one per line, or imported from a .txt file. The answer ("added N,
// skipped M") stays on the card until the next addition, so the administrator can read it.
import { UploadOutlined } from "@ant-design/icons";
import { Alert, App, Button, Card, Input, Space } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../lib/api-client";
import { postFormData } from "../../lib/post-form-data";
import { useMutation } from "../../lib/use-mutation";
import { WORD_FILE_MAX_BYTES, type TWordsAdded } from "../../../server/content/content.schema";

const BASE = "/api/v1/admin/sensitive_words";

export function WordEntryCard({ onChanged }: { onChanged: () => void }) {
  const { t } = useTranslation("content");
  const { message } = App.useApp();
  const [text, setText] = useState("");
  const [result, setResult] = useState<TWordsAdded | null>(null);
  const fileInput = useRef<HTMLInputElement | null>(null);

  const { run, busy } = useMutation(
    async (work: () => Promise<TWordsAdded>) => {
      setResult(await work());
      onChanged();
      return true;
    },
    { fallback: t("upload_failed", { ns: "errors" }) },
  );

  const add = async () => {
    const words = text
      .split(/\r?\n/)
      .map((w) => w.trim())
      .filter(Boolean);
    if (!words.length) return void message.error(t("validation.required", { ns: "errors" }));
    if (await run(() => apiRequest<TWordsAdded>(`${BASE}/add`, { body: { words }, json: true }))) setText("");
  };

  const importFile = async (file: File) => {
    if (file.size > WORD_FILE_MAX_BYTES) return void message.error(t("file_too_large", { ns: "errors" }));
    const form = new FormData();
    form.append("file", file);
    await run(() => postFormData<TWordsAdded>(`${BASE}/import`, form, { fallbackError: t("upload_failed", { ns: "errors" }) }));
  };

  return (
    <Card title={t("admin.add_title")} style={{ marginBottom: 16 }}>
      <Input.TextArea rows={4} value={text} onChange={(e) => setText(e.target.value)} placeholder={t("admin.add_placeholder")} data-testid="words-add-input" />
      <Space style={{ marginTop: 12 }} wrap>
        <Button type="primary" loading={busy} onClick={() => void add()} data-testid="words-add-submit">
          {t("admin.add")}
        </Button>
        <Button icon={<UploadOutlined />} disabled={busy} onClick={() => fileInput.current?.click()} data-testid="words-import">
          {t("admin.import")}
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept=".txt,text/plain"
          hidden
          data-testid="words-import-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (file) void importFile(file);
          }}
        />
      </Space>
      <p className="console__hint" style={{ marginTop: 8 }}>
        {t("admin.import_hint")}
      </p>
      {result && <Alert type="success" showIcon message={t("admin.result", result)} data-testid="words-result" />}
    </Card>
  );
}
