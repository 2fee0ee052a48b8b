// Copies text to the clipboard and says so. Falls back to a hidden textarea where the Clipboard
// API is missing (plain-HTTP intranet installs).
import { CheckOutlined, CopyOutlined } from "@ant-design/icons";
import { App, Button, Tooltip } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";

async function writeClipboard(text: string) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = document.createElement("textarea");
  area.value = text;
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}

export function CopyButton({ text, label, testId }: { text: string; label?: string; testId?: string }) {
  const { t } = useTranslation("chat");
  const { message } = App.useApp();
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await writeClipboard(text);
      setDone(true);
      setTimeout(() => setDone(false), 1500);
      void message.success(t("copied"));
    } catch {
      void message.error(t("copy_failed"));
    }
  };
  return (
    <Tooltip title={label ?? t("copy")}>
      <Button type="text" size="small" icon={done ? <CheckOutlined /> : <CopyOutlined />} onClick={copy} aria-label={label ?? t("copy")} data-testid={testId} />
    </Tooltip>
  );
}
