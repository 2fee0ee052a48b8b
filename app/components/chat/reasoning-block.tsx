// The model's "deep thinking": open while it streams, closed once the answer starts;
// the reader may open or close it at any time after that.
import { BulbOutlined, DownOutlined, LoadingOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";

export function ReasoningBlock({ text, thinking, autoOpen }: { text: string; thinking: boolean; autoOpen: boolean }) {
  const { t } = useTranslation("chat");
  const [choice, setChoice] = useState<boolean | null>(null);
  const open = choice ?? autoOpen;
  return (
    <div className={`chat-reasoning${open ? " is-open" : ""}`} data-testid="reasoning" data-open={open ? "true" : "false"}>
      <button type="button" className="chat-reasoning__head" onClick={() => setChoice(!open)} aria-expanded={open} data-testid="reasoning-toggle">
        {thinking ? <LoadingOutlined /> : <BulbOutlined />}
        <span>{thinking ? t("reasoning.thinking") : t("reasoning.done")}</span>
        <DownOutlined className="chat-reasoning__caret" />
      </button>
      {open && (
        <div className="chat-reasoning__body" data-testid="reasoning-text">
          {text}
        </div>
      )}
    </div>
  );
}
