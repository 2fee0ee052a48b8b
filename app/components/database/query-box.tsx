// "Try a query" on /database: one SELECT against a verified set through the streaming endpoint, shown
// as the chat shows the step: the SQL, then the rows as a table, with the row count and a note when
// the row limit cut them.
import { PlayCircleOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Input, Select, Space, Tag } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { MarkdownView } from "../chat/markdown-view";
import { readErrorEnvelope, streamSse } from "../../lib/sse-client";
import type { TDatabaseSetView } from "../../../server/knowledge/database/database-sets.schema";

export const QUERY_PATH = "/api/v1/training/database/mysql/req/result";

type TRun = { sql: string; content: string; rows: number | null; error: string | null };

export function QueryBox({ sets, selectedId, onSelect }: { sets: TDatabaseSetView[]; selectedId: string | null; onSelect: (id: string) => void }) {
  const { t } = useTranslation("database");
  const usable = sets.filter((s) => s.state === "done");
  const current = usable.find((s) => s.id === selectedId) ?? usable[0] ?? null;
  const [sql, setSql] = useState("");
  const [run, setRun] = useState<TRun | null>(null);
  const [busy, setBusy] = useState(false);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    if (!current || !sql.trim()) return;
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setBusy(true);
    let state: TRun = { sql: sql.trim(), content: "", rows: null, error: null };
    setRun(state);
    const update = (next: Partial<TRun>) => setRun((state = { ...state, ...next }));
    try {
      await streamSse(QUERY_PATH, {
        body: { training_set_id: current.id, sql, ctype: 0, ufids: "[]" },
        signal: abort.signal,
        onEvent: (e) => {
          if (e.event === "function") update({ sql: (JSON.parse(e.data) as { params: { sql: string } }).params.sql });
          else if (e.event === "message")
            update({
              content: state.content + ((JSON.parse(e.data) as { choices: Array<{ message: { content?: string } }> }).choices[0]?.message.content ?? ""),
            });
          else if (e.event === "close") update({ rows: (JSON.parse(e.data) as { rows: number }).rows });
          else if (e.event === "error") update({ error: readErrorEnvelope(e.data).description });
        },
      });
    } catch (err) {
      if (!abort.signal.aborted) update({ error: String((err as Error).message ?? err) });
    } finally {
      if (controller.current === abort) controller.current = null;
      setBusy(false);
    }
  };

  return (
    <Card title={t("try_query")} className="db-query" data-testid="db-query">
      <Space direction="vertical" style={{ width: "100%" }} size={12}>
        <Select
          className="db-query__set"
          value={current?.id}
          onChange={onSelect}
          options={usable.map((s) => ({ value: s.id, label: `${s.name} · ${s.database}` }))}
          disabled={!usable.length}
          data-testid="db-query-set"
        />
        {current && (
          <div className="db-query__tables">
            {current.tables.map((name) => (
              <Tag key={name} onClick={() => setSql((v) => v || `SELECT * FROM ${name} LIMIT 10`)}>
                {name}
              </Tag>
            ))}
          </div>
        )}
        <Input.TextArea
          value={sql}
          onChange={(e) => setSql(e.target.value)}
          autoSize={{ minRows: 3, maxRows: 10 }}
          placeholder={t("query_placeholder")}
          spellCheck={false}
          className="db-query__sql"
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) void start();
          }}
          data-testid="db-query-sql"
        />
        <Button
          type="primary"
          icon={<PlayCircleOutlined />}
          onClick={() => void start()}
          loading={busy}
          disabled={!current || !sql.trim()}
          data-testid="db-query-run"
        >
          {busy ? t("running") : t("run")}
        </Button>
        {run && (
          <div className="db-query__result" data-testid="db-query-result">
            <div className="db-query__caption">{t("chat.sql")}</div>
            <pre className="db-query__code" data-testid="db-query-echo">
              {run.sql}
            </pre>
            {run.error ? (
              <Alert type="error" showIcon message={run.error} data-testid="db-query-error" />
            ) : (
              <>
                {run.rows !== null && (
                  <div className="db-query__caption" data-testid="db-query-rows">
                    {t("chat.result")} · {t("rows_count", { count: run.rows })}
                  </div>
                )}
                <MarkdownView text={run.content} />
              </>
            )}
          </div>
        )}
      </Space>
    </Card>
  );
}
