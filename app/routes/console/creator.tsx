// /creator: my agents, with their states, versions and the actions on them.
import { OrderedListOutlined, PlusOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Alert, App, Button, Card, Empty, Space, Tooltip, type ButtonProps } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AgentCard, type TAgentCardAction } from "../../components/agent-editor/agent-card";
import { AppLink, useAppNavigate } from "../../components/app-link";
import { requireSessionAccount } from "../../lib/auth.server";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { getRequestLanguage } from "../../i18n/i18n.server";
import { listAgents } from "../../../server/agents/agents.service";
import { describeAgentQuota, type TAgentQuotaRefusal } from "../../../server/agents/agent-pages.service";
import type { TAgentSummary } from "../../../server/agents/agents.schema";
import "../../components/agent-editor/agent-editor.css";

export const handle = { i18n: ["agents"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const [agents, quota] = await Promise.all([listAgents(account), describeAgentQuota(account, getRequestLanguage(request))]);
  return { agents, quota };
}

/**
 * At the edition's limit the create buttons are disabled; hovering (or tapping) one says the limit
 * and links to the upgrade page. A disabled button gets no pointer events, so its wrapper listens.
 */
function CreateButton({ quota, onCreate, children, testId }: { quota: TAgentQuotaRefusal | null; onCreate: () => void; children: ReactNode; testId?: string }) {
  const { t } = useTranslation("agents");
  if (!quota) {
    return (
      <Button type="primary" icon={<PlusOutlined />} onClick={onCreate} data-testid={testId}>
        {children}
      </Button>
    );
  }
  return (
    <Tooltip trigger={["hover", "click"]} title={<LimitText quota={quota} />}>
      <span className="agent-creator__create-locked" data-testid={testId && `${testId}-locked`}>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled
          data-testid={testId}
          style={{ pointerEvents: "none" }}
          aria-label={`${String(children)}: ${t("creator.limit_title")}`}
        >
          {children}
        </Button>
      </span>
    </Tooltip>
  );
}

/** "Your edition allows 1 agent." and the way to more. */
function LimitText({ quota }: { quota: TAgentQuotaRefusal }) {
  const { t } = useTranslation("agents");
  const edition = quota.upgrade ? t(`editions.${quota.upgrade}`, { ns: "common" }) : null;
  return (
    <span data-testid="create-limit">
      {quota.limit === null ? quota.message : t("creator.limit_count", { count: quota.limit })}{" "}
      <AppLink to="/upgrade" data-testid="create-limit-upgrade">
        {edition ? t("creator.limit_upgrade", { edition }) : t("creator.limit_upgrade_any")}
      </AppLink>
    </span>
  );
}

export default function Creator() {
  const { t } = useTranslation("agents");
  const { message, modal } = App.useApp();
  const navigate = useAppNavigate();
  const loaded = useLoaderData<typeof loader>();
  const [agents, setAgents] = useState<TAgentSummary[]>(loaded.agents);
  const [quota, setQuota] = useState(loaded.quota);
  const refresh = async () => setAgents(await callTrpc(() => trpc.agents.list.query()));
  const change = useMutation(async (agent: TAgentSummary, action: TAgentCardAction) => {
    if (action === "publish") {
      await callTrpc(() => trpc.agents.publish.mutate({ id: agent.id }));
      message.success(t("editor.published", { version: agent.draft?.version ?? "" }));
    } else {
      await callTrpc(() => trpc.agents.delete.mutate({ id: agent.id }));
      message.success(t("creator.deleted"));
      // A freed place may lift the edition limit.
      setQuota(null);
    }
    await refresh();
  });
  const busyId = change.busyKey?.id ?? null;

  const act = (agent: TAgentSummary, action: TAgentCardAction) => {
    const run = () => change.run(agent, action);
    modal.confirm({
      title: action === "publish" ? t("editor.publish_confirm", { version: agent.draft?.version ?? "" }) : t("creator.delete_confirm", { name: agent.name }),
      content: action === "publish" ? t("editor.publish_confirm_body") : t("creator.delete_confirm_body"),
      okButtonProps: { danger: action === "delete", "data-testid": `${action}-ok` } as ButtonProps,
      onOk: run,
    });
  };

  const create = () => navigate("/agentDetail?id=");

  return (
    <div className="console__page agent-creator" style={{ maxWidth: 1280 }} data-testid="creator">
      <div className="agent-page__head">
        <h1 className="console__title">{t("creator.title")}</h1>
        <Space wrap>
          <Button icon={<OrderedListOutlined />} disabled={agents.length < 2} onClick={() => navigate("/agentSort")} data-testid="creator-sort">
            {t("creator.sort")}
          </Button>
          <CreateButton quota={quota} onCreate={create} testId="creator-create">
            {t("creator.create")}
          </CreateButton>
        </Space>
      </div>
      {quota && agents.length > 0 && (
        <Alert
          type="info"
          showIcon
          className="agent-editor__notice"
          title={t("creator.limit_title")}
          description={<LimitText quota={quota} />}
          data-testid="limit-notice"
        />
      )}
      {agents.length === 0 ? (
        <Card>
          <Empty description={t("creator.empty")} data-testid="creator-empty">
            <CreateButton quota={quota} onCreate={create}>
              {t("creator.create_first")}
            </CreateButton>
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
