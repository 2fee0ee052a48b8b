// One of my agents on /creator: who it is, where each of its versions stands, and what to do next.
import { BugOutlined, DeleteOutlined, EditOutlined, HistoryOutlined, CloudUploadOutlined, MoreOutlined, SendOutlined } from "@ant-design/icons";
import { Avatar, Button, Card, Dropdown, Space, Typography } from "antd";
import { RobotOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import type { TAgentSummary } from "../../../server/agents/agents.schema";
import { useAppNavigate } from "../app-link";
import { LocalDate } from "../ui/local-date";
import { AgentStateTag } from "./agent-state-tag";
import { useDebugChat } from "./use-debug-chat";

export type TAgentCardAction = "publish" | "delete";

export function AgentCard({ agent, busy, onAction }: { agent: TAgentSummary; busy: boolean; onAction: (a: TAgentCardAction) => void }) {
  const { t } = useTranslation("agents");
  const navigate = useAppNavigate();
  const openDebugChat = useDebugChat();
  const id = encodeURIComponent(agent.id);
  const versionLine = [
    agent.live && t("creator.version_live", { version: agent.live.version }),
    agent.under_review && t("creator.version_review", { version: agent.under_review.version }),
    agent.draft && t("creator.version_draft", { version: agent.draft.version }),
  ]
    .filter(Boolean)
    .join(" · ");
  const more = {
    items: [
      { key: "log", icon: <HistoryOutlined />, label: <span data-testid="agent-card-log">{t("creator.update_log")}</span> },
      // A draft, or the published version as it is, may go to the market's review; one at a time.
      {
        key: "upload",
        icon: <SendOutlined />,
        disabled: !(agent.draft || agent.live?.state === "published") || Boolean(agent.under_review),
        label: <span data-testid="agent-card-upload">{t("creator.submit")}</span>,
      },
      {
        key: "publish",
        icon: <CloudUploadOutlined />,
        disabled: !agent.draft || agent.live?.state === "on_shelf",
        label: <span data-testid="agent-card-publish">{t("creator.publish")}</span>,
      },
      { type: "divider" as const },
      { key: "delete", icon: <DeleteOutlined />, danger: true, label: <span data-testid="agent-card-delete">{t("creator.delete")}</span> },
    ],
    onClick: ({ key }: { key: string }) => {
      if (key === "log") navigate(`/updateLog?id=${id}`);
      else if (key === "upload") navigate(`/upload?id=${id}`);
      else onAction(key as TAgentCardAction);
    },
  };
  return (
    <Card className="agent-card" data-testid="agent-card" data-agent-id={agent.id} data-name={agent.name}>
      <div className="agent-card__top">
        <Avatar size={52} shape="square" src={agent.avatar_url ?? undefined} icon={<RobotOutlined />} />
        <div className="agent-card__info">
          <h3 className="agent-card__name" title={agent.name}>
            {agent.name}
          </h3>
          <div className="agent-card__tags">
            {agent.live && <AgentStateTag state={agent.live.state} />}
            {agent.under_review && agent.under_review.id !== agent.live?.id && <AgentStateTag state="under_review" />}
            {agent.draft && <AgentStateTag state="draft" />}
            {!agent.live && !agent.under_review && !agent.draft && agent.removed && <AgentStateTag state="removed" />}
          </div>
          <span className="agent-card__meta" data-testid="agent-card-version">
            {versionLine || "—"}
          </span>
          <span className="agent-card__meta">
            {t("creator.updated")} <LocalDate iso={agent.updated_at} withTime />
          </span>
        </div>
      </div>
      {agent.removed && (!agent.live || agent.removed.created_at > agent.live.created_at) && (
        <Typography.Text type="danger" className="agent-card__reason" data-testid="agent-card-removed">
          {t("creator.removed_line", { version: agent.removed.version, reason: agent.removed.removed_reason ?? "" })}
        </Typography.Text>
      )}
      {agent.invalid_reason && (
        <Typography.Text type="warning" className="agent-card__reason" data-testid="agent-card-invalid">
          {t("creator.invalid_reason", { reason: t(`creator.invalid_reasons.${agent.invalid_reason}`, { defaultValue: agent.invalid_reason }) })}
        </Typography.Text>
      )}
      <Space wrap size={8}>
        <Button type="primary" size="small" icon={<EditOutlined />} onClick={() => navigate(`/agentDetail?id=${id}`)} data-testid="agent-card-edit">
          {t("creator.edit")}
        </Button>
        <Button size="small" icon={<BugOutlined />} onClick={() => openDebugChat(agent.id)} data-testid="agent-card-debug">
          {t("creator.debug")}
        </Button>
        <Dropdown menu={more} trigger={["click"]}>
          <Button size="small" icon={<MoreOutlined />} loading={busy} data-testid="agent-card-more">
            {t("creator.more")}
          </Button>
        </Dropdown>
      </Space>
    </Card>
  );
}
