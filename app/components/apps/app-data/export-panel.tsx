// Export to xlsx as a job: "Export" starts one with the list's filters, the panel polls its progress
// and offers the file when it is done. The last exports stay listed with their links.
import { DownloadOutlined, ExportOutlined } from "@ant-design/icons";
import { App, Button, List, Progress, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../../lib/trpc";
import { useMutation } from "../../../lib/use-mutation";
import { LocalDate } from "../../ui/local-date";
import { usePolling } from "../../train/use-polling";
import type { TAppExportView, TDialogueFilters } from "../../../../server/apps/app-data.schema";

const STATE_COLORS = { pending: "default", running: "processing", done: "success", failed: "error" } as const;

export function ExportPanel({ appId, filters, initial }: { appId: string; filters: TDialogueFilters; initial: TAppExportView[] }) {
  const { t } = useTranslation("appdata");
  const { message } = App.useApp();
  const [exports, setExports] = useState(initial);
  const refresh = async () => setExports(await callTrpc(() => trpc.appData.exports.list.query({ appId })));
  usePolling(
    exports.some((e) => e.state === "pending" || e.state === "running"),
    refresh,
    1000,
  );

  const { run: start, busy } = useMutation(async () => {
    const created = await callTrpc(() => trpc.appData.exports.start.mutate({ appId, filters }));
    setExports((list) => [created, ...list.filter((e) => e.id !== created.id)]);
    message.info(t("export.started"));
  });

  return (
    <div className="appdata-export" data-testid="appdata-export">
      <Button icon={<ExportOutlined />} onClick={() => void start()} loading={busy} data-testid="appdata-export-start">
        {t("export.start")}
      </Button>
      {exports.length > 0 && (
        <List
          size="small"
          className="appdata-export__list"
          dataSource={exports.slice(0, 3)}
          renderItem={(e) => (
            <List.Item data-testid="appdata-export-item" data-state={e.state} data-export-id={e.id}>
              <div className="appdata-export__row">
                <Tag color={STATE_COLORS[e.state]}>{t(`export.states.${e.state}`)}</Tag>
                <Typography.Text type="secondary">
                  <LocalDate iso={e.created_at} withTime />
                </Typography.Text>
                {e.state === "running" && <Progress percent={e.progress} size="small" className="appdata-export__progress" />}
                {e.state === "done" && <span>{t("export.rows", { count: e.row_count })}</span>}
                {e.state === "failed" && <Typography.Text type="danger">{t("export.failed")}</Typography.Text>}
                {e.download_url && (
                  <Button type="link" size="small" href={e.download_url} icon={<DownloadOutlined />} data-testid="appdata-export-download">
                    {t("export.download")}
                  </Button>
                )}
              </div>
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
