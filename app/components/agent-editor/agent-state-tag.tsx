// One look for an agent version's state wherever it is shown (creator list, editor, review).
import { Tag, Tooltip } from "antd";
import { useTranslation } from "react-i18next";

const COLORS: Record<string, string> = {
  draft: "default",
  under_review: "processing",
  on_shelf: "success",
  published: "green",
  published_in_review: "processing",
  removed: "error",
  upgraded: "default",
  invalid: "warning",
};

export function AgentStateTag({ state, reason }: { state: string; reason?: string | null }) {
  const { t } = useTranslation("common");
  const tag = (
    <Tag color={COLORS[state] ?? "default"} data-testid="agent-state" data-state={state}>
      {t(`agent_state.${state}`)}
    </Tag>
  );
  return reason ? <Tooltip title={reason}>{tag}</Tooltip> : tag;
}
