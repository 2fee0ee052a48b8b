// The library as cards: the picture or first frame, the name as displayFileName shortens it, its type and
// size, and the actions. In picker mode a click selects instead.
import { CheckCircleFilled, DeleteOutlined, EditOutlined, EyeOutlined } from "@ant-design/icons";
import { Button, Card, Empty, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import { displayFileName } from "../../lib/file-name";
import { formatSize, type TMediaItem } from "./media-client";
import { MediaThumb } from "./media-thumb";

type TProps = {
  items: TMediaItem[];
  emptyText: string;
  onPreview: (item: TMediaItem) => void;
  onRename?: (item: TMediaItem) => void;
  onDelete?: (item: TMediaItem) => void;
  /** Picker mode: a click selects the item. */
  selectedId?: string | null;
  onSelect?: (item: TMediaItem) => void;
};

export function MediaGrid({ items, emptyText, onPreview, onRename, onDelete, selectedId, onSelect }: TProps) {
  const { t } = useTranslation("media");
  if (!items.length) return <Empty className="media-empty" description={emptyText} />;
  return (
    <ul className="media-grid" data-testid="media-grid">
      {items.map((item) => {
        const selected = selectedId === item.id;
        const actions = [
          <Tooltip key="preview" title={t("actions.preview")}>
            <Button
              type="text"
              size="small"
              icon={<EyeOutlined />}
              aria-label={t("actions.preview")}
              onClick={() => onPreview(item)}
              data-testid="media-preview"
            />
          </Tooltip>,
          onRename && (
            <Tooltip key="rename" title={t("actions.rename")}>
              <Button
                type="text"
                size="small"
                icon={<EditOutlined />}
                aria-label={t("actions.rename")}
                onClick={() => onRename(item)}
                data-testid="media-rename"
              />
            </Tooltip>
          ),
          onDelete && (
            <Tooltip key="delete" title={t("actions.delete")}>
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t("actions.delete")}
                onClick={() => onDelete(item)}
                data-testid="media-delete"
              />
            </Tooltip>
          ),
        ].filter(Boolean);
        return (
          <li key={item.id} className="media-grid__cell">
            <Card
              size="small"
              hoverable
              className={`media-card${selected ? " media-card--selected" : ""}`}
              data-testid="media-card"
              data-id={item.id}
              data-name={item.name}
              cover={
                <button
                  type="button"
                  className="media-card__cover"
                  onClick={() => (onSelect ? onSelect(item) : onPreview(item))}
                  aria-pressed={onSelect ? selected : undefined}
                  aria-label={item.name}
                >
                  <MediaThumb item={item} />
                  {selected && <CheckCircleFilled className="media-card__check" aria-hidden />}
                </button>
              }
              actions={actions}
            >
              <div className="media-card__name" title={item.name} data-testid="media-name">
                {displayFileName(item.name)}
              </div>
              <div className="media-card__meta">
                {t(`type.${item.kind}`)} · {formatSize(item.size, t)}
                {item.width && item.height ? ` · ${item.width}×${item.height}` : ""}
              </div>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
