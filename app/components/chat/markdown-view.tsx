// The model's markdown (GFM: tables, task lists, strikethrough, autolinks). Raw HTML in the text is
// never rendered (no rehype-raw), and react-markdown's URL filter drops javascript: and the like,
// so a reply cannot inject script. Links open in a new tab without access to this window.
import { Children, isValidElement, memo, type ReactElement, type ReactNode } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { CodeBlock } from "./code-block";

function readText(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(readText).join("");
  if (isValidElement(node)) return readText((node.props as { children?: ReactNode }).children);
  return "";
}

const COMPONENTS: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
  pre: ({ children }) => {
    const code = Children.toArray(children)[0] as ReactElement<{ className?: string; children?: ReactNode }> | undefined;
    const language = /language-([\w+#.-]+)/.exec(code?.props?.className ?? "")?.[1];
    return <CodeBlock code={readText(code?.props?.children).replace(/\n$/, "")} language={language} />;
  },
  table: ({ node: _node, ...props }) => (
    <div className="chat-md__table">
      <table {...props} />
    </div>
  ),
  img: ({ node: _node, ...props }) => <img {...props} loading="lazy" referrerPolicy="no-referrer" alt={props.alt ?? ""} />,
};

const PLUGINS = [remarkGfm];

export const MarkdownView = memo(function MarkdownView({ text }: { text: string }) {
  return (
    <div className="chat-md">
      <Markdown remarkPlugins={PLUGINS} components={COMPONENTS}>
        {text}
      </Markdown>
    </div>
  );
});
