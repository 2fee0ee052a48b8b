// The passages a reply drew on (close.retrieve), numbered; each opens to show its text.
import { BookOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TCitation } from "./chat-state";

export function Citations({ items }: { items: TCitation[] }) {
  const { t } = useTranslation("chat");
  const [open, setOpen] = useState<number | null>(null);
  if (!items.length) return null;
  return (
    <div className="chat-cite" data-testid="citations">
      <div className="chat-cite__title">
        <BookOutlined /> {t("citations.title", { count: items.length })}
      </div>
      <ol className="chat-cite__list">
        {items.map((c, i) => (
          <li key={c.id || i} className={open === i ? "is-open" : undefined}>
            <button type="button" className="chat-cite__item" onClick={() => setOpen(open === i ? null : i)} aria-expanded={open === i} data-testid="citation">
              <span className="chat-cite__num">{i + 1}</span>
              <span className="chat-cite__name">{c.title || t("citations.untitled")}</span>
            </button>
            {open === i && (
              <div className="chat-cite__text" data-testid="citation-text">
                {c.text}
              </div>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
