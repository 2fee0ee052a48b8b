// Beside the agent picked in the app form: the agent's variables, which are required, and what the
// people using the app meet because of them (H5 visitors get a form before their first message; API
// callers send `variables`; a bot cannot ask, so a required variable needs a default there).
import { Alert, Form, Space, Tag } from "antd";
import { useTranslation } from "react-i18next";
import type { TAgentVariableNote } from "../../../../server/apps/agent-variables.service";
import type { TAppType } from "../../../../server/apps/apps.schema";

type TAgentOption = { id: string; name: string; variables?: TAgentVariableNote[] };

export function AgentVariablesNote({ agents, type }: { agents: TAgentOption[]; type: TAppType }) {
  const { t } = useTranslation("apps");
  const picked = Form.useWatch("agent_ids") as string | string[] | undefined;
  const ids = Array.isArray(picked) ? picked : picked ? [picked] : [];
  const chosen = agents.filter((a) => ids.includes(a.id) && a.variables?.length);
  if (!chosen.length) return null;

  return (
    <div className="app-form__notice" data-testid="app-agent-variables">
      {chosen.map((agent) => {
        const variables = agent.variables ?? [];
        const required = variables.filter((v) => v.required);
        const blocking = required.filter((v) => !v.hasDefault);
        const warn = type === "bot" && blocking.length > 0;
        const how = type === "api" ? "api" : type === "bot" ? "bot" : "visitors";
        return (
          <Alert
            key={agent.id}
            type={warn ? "warning" : "info"}
            showIcon
            message={
              required.length
                ? t("form.agent_variables.required_title", { agent: agent.name, count: required.length })
                : t("form.agent_variables.optional_title", { agent: agent.name, count: variables.length })
            }
            description={
              <Space direction="vertical" size={6} style={{ width: "100%" }}>
                <Space size={[6, 6]} wrap>
                  {variables.map((v) => (
                    <Tag key={v.name} color={v.required ? "red" : undefined} data-testid="app-agent-variable" data-required={v.required ? "true" : "false"}>
                      {v.name}
                      {v.required ? ` · ${t("form.agent_variables.required")}` : ""}
                    </Tag>
                  ))}
                </Space>
                <span>
                  {warn ? t("form.agent_variables.bot_blocking", { names: blocking.map((v) => v.name).join(", ") }) : t(`form.agent_variables.${how}`)}
                </span>
              </Space>
            }
          />
        );
      })}
    </div>
  );
}
