// What every chat's markdown shares (the console's MarkdownView and the H5 chat's lighter one):
// GFM, no raw HTML (no rehype-raw; react-markdown's URL filter drops javascript: and the like),
// links in a new tab without access to this window, wide tables scrolled, images lazy and opening
// full size, links to videos played in place (markdown-media). Each caller brings its own code
// blocks. No antd here: the phone chat loads this.
import { memo } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import type { TChatMedia } from "./chat-media";
import { MarkdownImage, MarkdownLink, NO_MEDIA, ReplyMediaContext } from "./markdown-media";

export const BASE_COMPONENTS: Components = {
  a: MarkdownLink,
  table: ({ node: _node, ...props }) => (
    <div className="chat-md__table">
      <table {...props} />
    </div>
  ),
  img: MarkdownImage,
};

const PLUGINS = [remarkGfm];

/** `media`: the reply's generated pictures and videos (close.media), when the stream named them. */
export const MarkdownBody = memo(function MarkdownBody({ text, components, media }: { text: string; components: Components; media?: readonly TChatMedia[] }) {
  return (
    <ReplyMediaContext.Provider value={media ?? NO_MEDIA}>
      <div className="chat-md">
        <Markdown remarkPlugins={PLUGINS} components={components}>
          {text}
        </Markdown>
      </div>
    </ReplyMediaContext.Provider>
  );
});
