// The app's menu bar: a text reply shows as a message, a link opens, a picture-text item
// shows as a card in the chat.
import type { TH5MenuItem } from "../../../server/apps/h5-view.service";

export function H5MenuBar({ items, onReply }: { items: TH5MenuItem[]; onReply: (item: TH5MenuItem) => void }) {
  if (items.length === 0) return null;
  return (
    <nav className="h5-menu" data-testid="h5-menu">
      {items.map((item, i) =>
        item.replyType === "link" && /^https?:\/\//i.test(item.content) ? (
          <a key={i} className="h5-menu__item" href={item.content} target="_blank" rel="noopener noreferrer">
            {item.title}
          </a>
        ) : (
          <button key={i} type="button" className="h5-menu__item" onClick={() => onReply(item)}>
            {item.title}
          </button>
        ),
      )}
    </nav>
  );
}

/** What a tapped text or picture-text item puts in the chat. */
export function MenuReply({ item }: { item: TH5MenuItem }) {
  if (item.replyType === "picture_text") {
    return (
      <div className="h5-msg h5-msg--bot" data-testid="h5-menu-card">
        <div className="h5-bubble h5-menu-card">
          {item.imageUrl && <img src={item.imageUrl} alt="" loading="lazy" />}
          <b>{item.title}</b>
          {item.content && <p>{item.content}</p>}
        </div>
      </div>
    );
  }
  return (
    <div className="h5-msg h5-msg--bot" data-testid="h5-menu-text">
      <div className="h5-bubble h5-plain">{item.content}</div>
    </div>
  );
}
