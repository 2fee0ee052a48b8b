// The H5 chat's markdown, loaded lazily with the first answer. The same rules as the console's
// MarkdownView (GFM; no raw HTML; react-markdown's URL filter; links in a new tab without opener)
// but with plain code blocks: the console's copy button would bring antd to the phone.
import { memo } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

const COMPONENTS: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
  pre: ({ node: _node, ...props }) => <pre className="h5-code" {...props} />,
  table: ({ node: _node, ...props }) => (
    <div className="chat-md__table">
      <table {...props} />
    </div>
  ),
  img: ({ node: _node, ...props }) => <img {...props} loading="lazy" referrerPolicy="no-referrer" alt={props.alt ?? ""} />,
};

const PLUGINS = [remarkGfm];

export const H5Markdown = memo(function H5Markdown({ text }: { text: string }) {
  return (
    <div className="chat-md">
      <Markdown remarkPlugins={PLUGINS} components={COMPONENTS}>
        {text}
      </Markdown>
    </div>
  );
});
