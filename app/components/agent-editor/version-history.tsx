// The agent's versions, newest first, with their states; the one the editor shows is marked.
import { List, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { TAgentVersionView } from "../../../server/agents/agents.schema";
import { LocalDate } from "../ui/local-date";
import { AgentStateTag } from "./agent-state-tag";

export function VersionHistory({ versions, currentId }: { versions: TAgentVersionView[]; currentId?: string }) {
  const { t } = useTranslation("agents");
  return (
    <div data-testid="version-history">
      <List
        size="small"
        dataSource={versions}
        locale={{ emptyText: t("editor.no_versions") }}
        renderItem={(v) => (
          <List.Item
            data-testid="version-item"
            data-version={v.version}
            data-state={v.state}
            className={v.id === currentId ? "agent-editor__version--current" : undefined}
          >
            <Space orientation="vertical" size={2} style={{ width: "100%" }}>
              <Space wrap size={6}>
                <Typography.Text strong>v{v.version}</Typography.Text>
                <AgentStateTag state={v.state} />
                {v.id === currentId && <Typography.Text type="secondary">{t("editor.shown_here")}</Typography.Text>}
              </Space>
              {v.update_note && (
                <Typography.Text type="secondary" ellipsis={{ tooltip: v.update_note }}>
                  {v.update_note}
                </Typography.Text>
              )}
              {v.removed_reason && <Typography.Text type="danger">{t("creator.removed_reason", { reason: v.removed_reason })}</Typography.Text>}
              <Typography.Text type="secondary" className="agent-editor__hint">
                <LocalDate iso={v.published_at ?? v.submitted_at ?? v.created_at} withTime />
              </Typography.Text>
            </Space>
          </List.Item>
        )}
      />
    </div>
  );
}
