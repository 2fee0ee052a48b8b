// What every chat's markdown shares (the console's MarkdownView and the H5 chat's lighter one):
// GFM, no raw HTML (no rehype-raw; react-markdown's URL filter drops javascript: and the like),
// links in a new tab without access to this window, wide tables scrolled, images lazy. Each caller
// brings its own code blocks. No antd here: the phone chat loads this.
import { memo } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

export const BASE_COMPONENTS: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
  table: ({ node: _node, ...props }) => (
    <div className="chat-md__table">
      <table {...props} />
    </div>
  ),
  img: ({ node: _node, ...props }) => <img {...props} loading="lazy" referrerPolicy="no-referrer" alt={props.alt ?? ""} />,
};

const PLUGINS = [remarkGfm];

export const MarkdownBody = memo(function MarkdownBody({ text, components }: { text: string; components: Components }) {
  return (
    <div className="chat-md">
      <Markdown remarkPlugins={PLUGINS} components={components}>
        {text}
      </Markdown>
    </div>
  );
});
