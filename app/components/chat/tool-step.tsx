// One tool call the model made (a `function` event): a collapsible card with the tool's name, its
// arguments, and its result; the interpreters' code as a code block, HTML also as a preview in a
// sandboxed frame (sandbox="" : no script, no same-origin, no forms).
import { CodeOutlined, DownOutlined, ToolOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TToolStep } from "./chat-state";
import { CodeBlock } from "./code-block";

const KNOWN_TOOLS = ["web_search", "web_reader", "html_interpreter", "python_interpreter", "current_time", "sql_generate_and_data_query"];
const CODE_LANGUAGE: Record<string, string> = { html_interpreter: "html", python_interpreter: "python" };

function formatValue(value: unknown) {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

export function ToolStep({ step }: { step: TToolStep }) {
  const { t } = useTranslation("chat");
  const [open, setOpen] = useState(false);
  const params = step.params ?? {};
  const language = CODE_LANGUAGE[step.name];
  const code = language && typeof params.code === "string" ? params.code : null;
  // The runtime sends {arguments, result?, code?, error?}; other shapes show as they are.
  const { code: _code, result, error, arguments: given, ...rest } = params as Record<string, unknown>;
  const args = (given && typeof given === "object" ? given : given !== undefined ? { value: given } : rest) as Record<string, unknown>;
  const label = KNOWN_TOOLS.includes(step.name) ? t(`tool.names.${step.name}`) : step.name;
  return (
    <div className={`chat-tool${open ? " is-open" : ""}`} data-testid="tool-step" data-tool={step.name}>
      <button type="button" className="chat-tool__head" onClick={() => setOpen(!open)} aria-expanded={open} data-testid="tool-step-toggle">
        {code ? <CodeOutlined /> : <ToolOutlined />}
        <span className="chat-tool__label">{t("tool.used", { name: label })}</span>
        <DownOutlined className="chat-tool__caret" />
      </button>
      {open && (
        <div className="chat-tool__body" data-testid="tool-step-body">
          {Object.keys(args).length > 0 && (
            <>
              <div className="chat-tool__caption">{t("tool.arguments")}</div>
              <pre className="chat-tool__json">{formatValue(args)}</pre>
            </>
          )}
          {code && <CodeBlock code={code} language={language} />}
          {code && language === "html" && (
            <>
              <div className="chat-tool__caption">{t("tool.preview")}</div>
              <iframe className="chat-tool__preview" sandbox="" srcDoc={code} title={t("tool.preview")} data-testid="html-preview" />
            </>
          )}
          {result !== undefined && (
            <>
              <div className="chat-tool__caption">{t("tool.result")}</div>
              <pre className="chat-tool__json">{formatValue(result)}</pre>
            </>
          )}
          {typeof error === "string" && error && (
            <div className="chat-tool__error" data-testid="tool-step-error">
              {error}
            </div>
          )}
          {!code && result === undefined && !error && Object.keys(args).length === 0 && <div className="chat-tool__caption">{t("tool.no_arguments")}</div>}
        </div>
      )}
    </div>
  );
}
