// The H5 chat's markdown, loaded lazily with the first answer: the console's rules (markdown-base)
// with plain code blocks, since the console's copy button would bring antd to the phone.
import { memo } from "react";
import type { Components } from "react-markdown";
import type { TChatMedia } from "../chat/chat-media";
import { BASE_COMPONENTS, MarkdownBody } from "../chat/markdown-base";

const COMPONENTS: Components = {
  ...BASE_COMPONENTS,
  pre: ({ node: _node, ...props }) => <pre className="h5-code" {...props} />,
};

export const H5Markdown = memo(function H5Markdown({ text, media }: { text: string; media?: readonly TChatMedia[] }) {
  return <MarkdownBody text={text} components={COMPONENTS} media={media} />;
});
