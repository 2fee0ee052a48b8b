// Copies text to the clipboard (app/lib/clipboard.ts) and says so.
import { CheckOutlined, CopyOutlined } from "@ant-design/icons";
import { App, Button, Tooltip } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { copyText } from "../../lib/clipboard";

export function CopyButton({ text, label, testId }: { text: string; label?: string; testId?: string }) {
  const { t } = useTranslation("chat");
  const { message } = App.useApp();
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      if (!(await copyText(text))) throw new Error("not copied");
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
