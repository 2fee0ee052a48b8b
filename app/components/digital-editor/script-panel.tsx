// The script and what speaking it will cost: the price before anything is paid, and the path the
// render takes, said plainly when the figure cannot move its lips.
import { Alert, Input, Spin } from "antd";
import { useTranslation } from "react-i18next";
import { SCRIPT_MAX } from "../../../server/digital/digital.schema";
import { formatZ } from "../../../server/money/money-format";
import { AppLink } from "../app-link";
import type { TVideoQuote } from "./editor-client";

export function ScriptField({ value, onChange }: { value: string; onChange: (script: string) => void }) {
  const { t } = useTranslation("digital");
  return (
    <div className="digital-field">
      <label className="digital-field__label" htmlFor="digital-script">
        {t("editor.script.label")}
      </label>
      <Input.TextArea
        id="digital-script"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={SCRIPT_MAX}
        showCount
        autoSize={{ minRows: 5, maxRows: 14 }}
        placeholder={t("editor.script.placeholder")}
        data-testid="digital-script"
      />
    </div>
  );
}

const seconds = (ms: number) => Math.max(1, Math.round(ms / 1000));

export function QuoteBox({ quote, loading }: { quote: TVideoQuote | null; loading: boolean }) {
  const { t } = useTranslation("digital");
  const z = (micro: number) => t("common:money.z", { amount: formatZ(micro) });
  if (!quote) return <div className="digital-quote">{loading ? <Spin size="small" /> : null}</div>;
  return (
    <div className="digital-quote" data-testid="digital-quote" data-path={quote.path} data-micro={quote.totalMicro}>
      <div className="digital-quote__price">
        <span className="digital-quote__label">{t("editor.quote.label")}</span>
        <strong data-testid="digital-quote-total">{z(quote.totalMicro)}</strong>
        {loading && <Spin size="small" />}
      </div>
      {quote.chars > 0 && (
        <p className="digital-quote__detail">
          {t("editor.quote.detail", { chars: quote.chars, seconds: seconds(quote.estimatedDurationMs), speech: z(quote.speechMicro) })}
          {quote.path === "lipsync" && ` ${t("editor.quote.lipsync_price", { amount: z(quote.lipsyncMicro) })}`}
        </p>
      )}
      {quote.problems.includes("no_figure") ? null : quote.path === "lipsync" ? (
        <Alert type="success" showIcon message={t("editor.quote.path_lipsync")} data-testid="digital-quote-path" />
      ) : (
        <Alert
          type="warning"
          showIcon
          message={t("editor.quote.path_idle_loop")}
          description={
            <AppLink to="/figureTrain" data-testid="digital-train-link">
              {t("editor.quote.train_link")}
            </AppLink>
          }
          data-testid="digital-quote-path"
        />
      )}
      {quote.problems.length > 0 && (
        <ul className="digital-quote__problems" data-testid="digital-quote-problems">
          {quote.problems.map((p) => (
            <li key={p}>{t(`render.problems.${p}`)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
