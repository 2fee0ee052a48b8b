// The debug chat's top bar: which of my agents I am talking to (a picker), its state, and the way
// to start a new dialogue or look back through history.
import { HistoryOutlined, PlusOutlined, RobotOutlined } from "@ant-design/icons";
import { Avatar, Button, Select, Tag, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";

export type TAgentOption = { id: string; name: string; avatar_url: string | null; state: TAgentState };
export type TAgentState = "draft" | "under_review" | "published" | "on_shelf" | "removed" | "invalid";

const STATE_COLOR: Record<TAgentState, string> = {
  draft: "default",
  under_review: "processing",
  published: "success",
  on_shelf: "success",
  removed: "warning",
  invalid: "error",
};

export function AgentStateTag({ state }: { state: TAgentState }) {
  const { t } = useTranslation("chat");
  return (
    <Tag color={STATE_COLOR[state]} data-testid="agent-state">
      {t(`agent_state.${state}`)}
    </Tag>
  );
}

type TProps = {
  agents: TAgentOption[];
  current: TAgentOption | null;
  onPick: (id: string) => void;
  onNewDialogue: () => void;
  canStartNew: boolean;
};

export function AgentHeader({ agents, current, onPick, onNewDialogue, canStartNew }: TProps) {
  const { t } = useTranslation("chat");
  return (
    <div className="chat__head" data-testid="agent-header">
      <div className="chat__agent">
        <Avatar size={36} src={current?.avatar_url || undefined} icon={<RobotOutlined />} />
        <Select
          className="chat__picker"
          variant="borderless"
          value={current?.id}
          placeholder={t("pick_agent")}
          onChange={onPick}
          popupMatchSelectWidth={false}
          options={agents.map((a) => ({ value: a.id, label: a.name }))}
          aria-label={t("pick_agent")}
          data-testid="agent-picker"
          labelRender={() => (
            <span className="chat__agent-name" data-testid="agent-name">
              {current?.name}
            </span>
          )}
        />
        {current && <AgentStateTag state={current.state} />}
      </div>
      <div className="chat__head-actions">
        <Tooltip title={t("new_dialogue")}>
          <Button icon={<PlusOutlined />} onClick={onNewDialogue} disabled={!canStartNew} data-testid="new-dialogue">
            <span className="chat__hide-narrow">{t("new_dialogue")}</span>
          </Button>
        </Tooltip>
        <Tooltip title={t("history")}>
          <AppLink to="/history_qa" aria-label={t("history")} data-testid="history-link">
            <Button icon={<HistoryOutlined />} tabIndex={-1} />
          </AppLink>
        </Tooltip>
      </div>
    </div>
  );
}
