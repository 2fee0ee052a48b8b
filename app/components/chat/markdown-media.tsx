// Links and pictures in a reply's markdown. A link to a video plays in place (controls, inline on
// phones, only its metadata loaded until played); a picture opens full size in a new tab when
// tapped, unless it already sits inside a link (an anchor cannot hold another). The reply's media
// (close.media) reach them through ReplyMediaContext: they say which links are videos and name
// their posters.
import { createContext, useContext, type ComponentProps } from "react";
import type { ExtraProps } from "react-markdown";
import { findVideo, type TChatMedia } from "./chat-media";

export const NO_MEDIA: readonly TChatMedia[] = [];
export const ReplyMediaContext = createContext<readonly TChatMedia[]>(NO_MEDIA);
const InsideLinkContext = createContext(false);

export function MarkdownLink({ node: _node, href, children, ...props }: ComponentProps<"a"> & ExtraProps) {
  const video = findVideo(href ?? "", useContext(ReplyMediaContext));
  if (video) {
    return (
      <video className="chat-md__video" src={href} poster={video.posterUrl ?? undefined} controls playsInline preload="metadata" data-testid="reply-video">
        <a href={href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      </video>
    );
  }
  return (
    <InsideLinkContext.Provider value={true}>
      <a {...props} href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    </InsideLinkContext.Provider>
  );
}

export function MarkdownImage({ node: _node, ...props }: ComponentProps<"img"> & ExtraProps) {
  const insideLink = useContext(InsideLinkContext);
  const picture = <img {...props} loading="lazy" referrerPolicy="no-referrer" alt={props.alt ?? ""} />;
  if (insideLink || !props.src) return picture;
  return (
    <a className="chat-md__picture" href={props.src} target="_blank" rel="noopener noreferrer" data-testid="reply-picture">
      {picture}
    </a>
  );
}
