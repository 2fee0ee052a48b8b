// One dialogue in the history: the agent, the title, when it last moved, whether it was
// interrupted, and rename / delete.
import { DeleteOutlined, EditOutlined, RobotOutlined } from "@ant-design/icons";
import { Avatar, Button, Tag, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import type { TDialogueListItem } from "../../../server/dialogues/chat.schema";
import { HTML_LANG, isLanguage } from "../../i18n/config";

/** The list is fetched in the browser, so the reader's zone and the page's language apply at once. */
function formatTime(iso: string, language: string) {
  const locale = isLanguage(language) ? HTML_LANG[language] : undefined;
  const date = new Date(iso);
  const sameDay = date.toDateString() === new Date().toDateString();
  return new Intl.DateTimeFormat(locale, sameDay ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" }).format(date);
}

export type TDialogueItem = TDialogueListItem;

export function dialogueHref(d: TDialogueItem) {
  return `/dialogue?agent_id=${encodeURIComponent(d.agent_id ?? "")}&dialogue_id=${encodeURIComponent(d.id)}`;
}

export function DialogueRow({ item, onRename, onDelete }: { item: TDialogueItem; onRename: () => void; onDelete: () => void }) {
  const { t, i18n } = useTranslation("chat");
  const body = (
    <>
      <Avatar size={40} src={item.agent_avatar_url || undefined} icon={<RobotOutlined />} className="history-row__avatar" />
      <div className="history-row__text">
        <div className="history-row__title" data-testid="dialogue-title">
          {item.title || t("history_page.untitled")}
        </div>
        <div className="history-row__meta">
          <span className="history-row__agent">{item.agent_name ?? t("history_page.agent_gone")}</span>
          <time className="history-row__time" dateTime={item.last_message_at}>
            {formatTime(item.last_message_at, i18n.language)}
          </time>
          {item.interrupted && (
            <Tag color="orange" className="history-row__tag" data-testid="interrupted-tag">
              {t("history_page.interrupted")}
            </Tag>
          )}
        </div>
      </div>
    </>
  );
  return (
    <div className="history-row" data-testid="dialogue-row" data-dialogue-id={item.id}>
      {item.agent_id ? (
        <AppLink to={dialogueHref(item)} className="history-row__open" data-testid="dialogue-open">
          {body}
        </AppLink>
      ) : (
        <div className="history-row__open is-disabled">{body}</div>
      )}
      <div className="history-row__actions">
        <Tooltip title={t("history_page.rename")}>
          <Button type="text" icon={<EditOutlined />} onClick={onRename} aria-label={t("history_page.rename")} data-testid="dialogue-rename" />
        </Tooltip>
        <Tooltip title={t("history_page.delete")}>
          <Button type="text" danger icon={<DeleteOutlined />} onClick={onDelete} aria-label={t("history_page.delete")} data-testid="dialogue-delete" />
        </Tooltip>
      </div>
    </div>
  );
}
