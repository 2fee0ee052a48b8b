// /agentDetail?id= (or without an id for a new agent): the agent editor.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AgentEditor } from "../../components/agent-editor/agent-editor";
import { requireSessionAccount } from "../../lib/auth.server";
import { getRequestLanguage } from "../../i18n/i18n.server";
import { getAgent } from "../../../server/agents/agents.service";
import { describeAgentQuota } from "../../../server/agents/agent-pages.service";
import { AGENT_PLUGINS } from "../../../server/agents/agents.schema";
import { listPublicModels } from "../../../server/models/models.service";

export const handle = { i18n: ["agents", "models", "train"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const id = new URL(request.url).searchParams.get("id") || null;
  const [detail, models, limitMessage] = await Promise.all([
    id ? getAgent(account, { id }) : null,
    listPublicModels(),
    // Asked up front, so nobody fills in the whole form only to be refused at the end.
    id ? null : describeAgentQuota(account, getRequestLanguage(request)),
  ]);
  return { detail, models, plugins: [...AGENT_PLUGINS] as string[], limitMessage };
}

export default function AgentDetailPage() {
  const { detail, models, plugins, limitMessage } = useLoaderData<typeof loader>();
  return <AgentEditor key={detail?.id ?? "new"} initial={detail} models={models} plugins={plugins} limitMessage={limitMessage} />;
}
