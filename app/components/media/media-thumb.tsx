// A picture or the first frame of a video, filling its box (lists and the picker): the server's
// thumbnail or poster frame once made, the original until then.
import { PlayCircleOutlined } from "@ant-design/icons";
import type { TMediaItem } from "./media-client";

type TThumbItem = Pick<TMediaItem, "kind" | "url" | "name" | "thumbUrl" | "posterUrl">;

export function MediaThumb({ item, className = "media-thumb" }: { item: TThumbItem; className?: string }) {
  return (
    <div className={className} data-kind={item.kind}>
      {item.kind === "image" ? (
        <img src={item.thumbUrl || item.url} alt={item.name} loading="lazy" />
      ) : (
        <>
          {item.posterUrl ? (
            <img src={item.posterUrl} alt={item.name} loading="lazy" />
          ) : (
            // #t=0.1: browsers show that frame instead of a black box.
            <video src={`${item.url}#t=0.1`} preload="metadata" muted playsInline aria-label={item.name} />
          )}
          <PlayCircleOutlined className="media-thumb__play" aria-hidden />
        </>
      )}
    </div>
  );
}
