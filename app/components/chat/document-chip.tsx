// Document reading: one temporary txt, docx or pdf of at most 10 MB, read for 3 hours.
// The chip above the box shows it and when it expires; choosing another file replaces it.
import { CloseOutlined, FileTextOutlined } from "@ant-design/icons";
import { App, Button, Tooltip } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { postFormData } from "../../lib/post-form-data";
import { displayFileName } from "../../lib/file-name";
import { useMutation } from "../../lib/use-mutation";

export type TChatDocument = { id: string; name: string; chars: number; expires_at: string };

export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
const DOCUMENT_TYPES = [".txt", ".docx", ".pdf"];

/** Whether a stored dialogue's `document` is one we can show. */
export function readStoredDocument(value: unknown): TChatDocument | null {
  const d = value as Partial<TChatDocument> | null;
  return d && typeof d.id === "string" && typeof d.name === "string" && typeof d.expires_at === "string"
    ? { id: d.id, name: d.name, chars: Number(d.chars ?? 0), expires_at: d.expires_at }
    : null;
}

export function useDocumentUpload() {
  const { t } = useTranslation("chat");
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement | null>(null);
  const [doc, setDoc] = useState<TChatDocument | null>(null);
  const send = useMutation(
    async (form: FormData) =>
      setDoc(await postFormData<TChatDocument>("/api/v1/ai_message/document", form, { fallbackError: t("upload_failed", { ns: "errors" }) })),
    {
      fallback: t("upload_failed", { ns: "errors" }),
    },
  );
  const sendForm = send.run;

  const upload = useCallback(
    async (file: File) => {
      const ext = file.name.slice(file.name.lastIndexOf(".")).toLowerCase();
      if (!DOCUMENT_TYPES.includes(ext)) return void message.error(t("document.type"));
      if (file.size > DOCUMENT_MAX_BYTES) return void message.error(t("file_too_large", { ns: "errors" }));
      if (file.size === 0) return void message.error(t("file_empty_or_prohibited", { ns: "errors" }));
      const form = new FormData();
      form.append("file", file);
      await sendForm(form);
    },
    [message, t, sendForm],
  );

  const picker = (
    <input
      ref={input}
      type="file"
      hidden
      accept={DOCUMENT_TYPES.join(",")}
      data-testid="document-input"
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = "";
        if (file) void upload(file);
      }}
    />
  );
  return { doc, setDoc, uploading: send.busy, picker, choose: () => input.current?.click() };
}

export function DocumentChip({ doc, onRemove }: { doc: TChatDocument; onRemove: () => void }) {
  const { t } = useTranslation("chat");
  const [now, setNow] = useState<number | null>(null);
  // Time is the browser's: render it only after mounting, and refresh so expiry shows by itself.
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const expires = new Date(doc.expires_at);
  const expired = now !== null && expires.getTime() <= now;
  return (
    <div className={`chat-doc${expired ? " is-expired" : ""}`} data-testid="document-chip">
      <FileTextOutlined />
      <span className="chat-doc__name" title={doc.name}>
        {displayFileName(doc.name)}
      </span>
      <span className="chat-doc__meta">
        {now === null
          ? null
          : expired
            ? t("document_expired", { ns: "errors" })
            : t("document.expires", { time: expires.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) })}
        {doc.chars > 0 && <> · {t("document.chars", { count: doc.chars })}</>}
      </span>
      <Tooltip title={t("document.remove")}>
        <Button type="text" size="small" icon={<CloseOutlined />} onClick={onRemove} aria-label={t("document.remove")} data-testid="document-remove" />
      </Tooltip>
    </div>
  );
}
