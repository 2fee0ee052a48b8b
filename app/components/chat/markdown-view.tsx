// The model's markdown in the console: markdown-base's rules (GFM, no raw HTML, safe links) with
// code blocks that name their language and offer a copy button.
import { Children, isValidElement, memo, type ReactElement, type ReactNode } from "react";
import type { Components } from "react-markdown";
import type { TChatMedia } from "./chat-media";
import { CodeBlock } from "./code-block";
import { BASE_COMPONENTS, MarkdownBody } from "./markdown-base";

function readText(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(readText).join("");
  if (isValidElement(node)) return readText((node.props as { children?: ReactNode }).children);
  return "";
}

const COMPONENTS: Components = {
  ...BASE_COMPONENTS,
  pre: ({ children }) => {
    const code = Children.toArray(children)[0] as ReactElement<{ className?: string; children?: ReactNode }> | undefined;
    const language = /language-([\w+#.-]+)/.exec(code?.props?.className ?? "")?.[1];
    return <CodeBlock code={readText(code?.props?.children).replace(/\n$/, "")} language={language} />;
  },
};

export const MarkdownView = memo(function MarkdownView({ text, media }: { text: string; media?: readonly TChatMedia[] }) {
  return <MarkdownBody text={text} components={COMPONENTS} media={media} />;
});
