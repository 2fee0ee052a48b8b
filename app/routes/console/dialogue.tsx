// /dialogue?agent_id=&dialogue_id= : the debug chat with one of my agents. The console's
// page at the desktop path only (/mobi/dialogue is the H5 chat), so it is built to work at phone
// width too.
import { MessageOutlined, PlusOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { Button, Empty, Result, Select } from "antd";
import { useTranslation } from "react-i18next";
import { getAgent, listAgents } from "../../../server/agents/agents.service";
import type { TAgentSummary } from "../../../server/agents/agents.schema";
import { isAppError } from "../../../server/errors/app-error";
import { AppLink } from "../../components/app-link";
import type { TAgentState } from "../../components/chat/agent-header";
import { ChatScreen, type TChatAgent } from "../../components/chat/chat-screen";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import "../../styles/chat.css";

export const handle = { i18n: ["chat"] };
export const meta: MetaFunction = () => [{ title: "Zelin" }];

/** What the header shows: invalid beats everything, then the live version's state, then review, else draft. */
function readAgentState(a: TAgentSummary): TAgentState {
  if (a.invalid_reason) return "invalid";
  if (a.live) return a.live.state === "on_shelf" ? "on_shelf" : "published";
  if (a.under_review) return "under_review";
  if (a.removed && !a.draft) return "removed";
  return "draft";
}

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const agentId = new URL(request.url).searchParams.get("agent_id");
  const summaries = await listAgents(account);
  const agents = summaries.map((a) => ({ id: a.id, name: a.name, avatar_url: a.avatar_url, state: readAgentState(a) }));
  let agent: TChatAgent | null = null;
  let missing = false;
  if (agentId) {
    try {
      const detail = await orNotFound(() => getAgent(account, { id: agentId }));
      const { config } = detail;
      agent = {
        id: detail.id,
        name: detail.name,
        avatar_url: detail.avatar_url,
        state: readAgentState(detail),
        welcome_message: config.welcome_message,
        variables: config.variables,
        show_reasoning: config.show_reasoning,
        document_reading: config.document_reading,
      };
    } catch (err) {
      // A missing or foreign agent opens the chat without it, saying so.
      if (!isAppError(err) || err.code !== "not_found") throw err;
      missing = true;
    }
  }
  return { agents, agent, missing };
}

// The dialogue in the URL changes as a chat starts; the agent data stays the same.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  const sameAgent = currentUrl.pathname === nextUrl.pathname && currentUrl.searchParams.get("agent_id") === nextUrl.searchParams.get("agent_id");
  return sameAgent && !formMethod ? false : defaultShouldRevalidate;
};

export default function DialoguePage() {
  const { t } = useTranslation("chat");
  const { agents, agent, missing } = useLoaderData<typeof loader>();
  const [, setParams] = useSearchParams();
  const pick = (id: string) =>
    setParams((p) => {
      p.delete("dialogue_id");
      p.set("agent_id", id);
      return p;
    });

  if (agent) return <ChatScreen key={agent.id} agent={agent} agents={agents} onPick={pick} />;
  return (
    <div className="chat chat--empty" data-testid="chat-empty">
      {agents.length === 0 ? (
        <Empty image={<MessageOutlined className="chat__empty-icon" />} description={t("no_agents")}>
          <AppLink to="/creator">
            <Button type="primary" icon={<PlusOutlined />}>
              {t("create_agent")}
            </Button>
          </AppLink>
        </Empty>
      ) : (
        <Result
          icon={<MessageOutlined className="chat__empty-icon" />}
          status={missing ? "warning" : "info"}
          title={missing ? t("agent_missing") : t("pick_agent_title")}
          extra={
            <Select
              className="chat__picker-wide"
              placeholder={t("pick_agent")}
              options={agents.map((a) => ({ value: a.id, label: a.name }))}
              onChange={pick}
              data-testid="agent-picker"
              showSearch={{ optionFilterProp: "label" }}
            />
          }
        />
      )}
    </div>
  );
}
