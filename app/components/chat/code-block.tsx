// A fenced code block: language label, copy button, horizontal scroll inside the block only.
import { CopyButton } from "./copy-button";

export function CodeBlock({ code, language }: { code: string; language?: string }) {
  return (
    <div className="chat-code" data-testid="code-block">
      <div className="chat-code__bar">
        <span className="chat-code__lang">{language || "text"}</span>
        <CopyButton text={code} testId="code-copy" />
      </div>
      <pre className="chat-code__pre">
        <code className={language ? `language-${language}` : undefined}>{code}</code>
      </pre>
    </div>
  );
}
