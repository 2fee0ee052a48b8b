// /creator: my agents, with their states, versions and the actions on them.
import { OrderedListOutlined, PlusOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Alert, App, Button, Card, Empty, Space, type ButtonProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AgentCard, type TAgentCardAction } from "../../components/agent-editor/agent-card";
import { useAppNavigate } from "../../components/app-link";
import { ApiError } from "../../lib/api-client";
import { requireSessionAccount } from "../../lib/auth.server";
import { callTrpc, trpc } from "../../lib/trpc";
import { getRequestLanguage } from "../../i18n/i18n.server";
import { listAgents } from "../../../server/agents/agents.service";
import { describeAgentQuota } from "../../../server/agents/agent-pages.service";
import type { TAgentSummary } from "../../../server/agents/agents.schema";
import "../../components/agent-editor/agent-editor.css";

export const handle = { i18n: ["agents"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const [agents, limitMessage] = await Promise.all([listAgents(account), describeAgentQuota(account, getRequestLanguage(request))]);
  return { agents, limitMessage };
}

export default function Creator() {
  const { t } = useTranslation("agents");
  const { message, modal } = App.useApp();
  const navigate = useAppNavigate();
  const loaded = useLoaderData<typeof loader>();
  const [agents, setAgents] = useState<TAgentSummary[]>(loaded.agents);
  const [limitMessage, setLimitMessage] = useState(loaded.limitMessage);
  const [busyId, setBusyId] = useState<string | null>(null);

  const fail = (err: unknown) => message.error(err instanceof ApiError ? err.description : String(err));
  const refresh = async () => setAgents(await callTrpc(() => trpc.agents.list.query()));

  const act = (agent: TAgentSummary, action: TAgentCardAction) => {
    const run = async () => {
      setBusyId(agent.id);
      try {
        if (action === "publish") {
          await callTrpc(() => trpc.agents.publish.mutate({ id: agent.id }));
          message.success(t("editor.published", { version: agent.draft?.version ?? "" }));
        } else {
          await callTrpc(() => trpc.agents.delete.mutate({ id: agent.id }));
          message.success(t("creator.deleted"));
          // A freed place may lift the edition limit.
          setLimitMessage(null);
        }
        await refresh();
      } catch (err) {
        fail(err);
      } finally {
        setBusyId(null);
      }
    };
    modal.confirm({
      title: action === "publish" ? t("editor.publish_confirm", { version: agent.draft?.version ?? "" }) : t("creator.delete_confirm", { name: agent.name }),
      content: action === "publish" ? t("editor.publish_confirm_body") : t("creator.delete_confirm_body"),
      okButtonProps: { danger: action === "delete", "data-testid": `${action}-ok` } as ButtonProps,
      onOk: run,
    });
  };

  // The edition's refusal is shown where the user asked, instead of an editor they cannot save.
  const create = () => (limitMessage ? void message.error(limitMessage) : navigate("/agentDetail?id="));

  return (
    <div className="console__page agent-creator" style={{ maxWidth: 1280 }} data-testid="creator">
      <div className="agent-page__head">
        <h1 className="console__title">{t("creator.title")}</h1>
        <Space wrap>
          <Button icon={<OrderedListOutlined />} disabled={agents.length < 2} onClick={() => navigate("/agentSort")} data-testid="creator-sort">
            {t("creator.sort")}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={create} data-testid="creator-create">
            {t("creator.create")}
          </Button>
        </Space>
      </div>
      {limitMessage && agents.length > 0 && <Alert type="info" showIcon className="agent-editor__notice" title={t("creator.limit_title")} description={limitMessage} data-testid="limit-notice" />}
      {agents.length === 0 ? (
        <Card>
          <Empty description={t("creator.empty")} data-testid="creator-empty">
            <Button type="primary" icon={<PlusOutlined />} onClick={create}>
              {t("creator.create_first")}
            </Button>
          </Empty>
        </Card>
      ) : (
        <div className="agent-list">
          {agents.map((a) => (
            <AgentCard key={a.id} agent={a} busy={busyId === a.id} onAction={(action) => act(a, action)} />
          ))}
        </div>
      )}
    </div>
  );
}
