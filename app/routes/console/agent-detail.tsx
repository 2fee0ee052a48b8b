// /agentDetail?id= (or without an id for a new agent): the agent editor.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { AgentEditor } from "../../components/agent-editor/agent-editor";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { getRequestLanguage } from "../../i18n/i18n.server";
import { getAgent } from "../../../server/agents/agents.service";
import { describeAgentQuota } from "../../../server/agents/agent-pages.service";
import { AGENT_PLUGINS } from "../../../server/agents/agents.schema";
import { listPublicModels } from "../../../server/models/models.service";
import "../../styles/chat.css";

export const handle = { i18n: ["agents", "models", "train", "chat"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const id = new URL(request.url).searchParams.get("id") || null;
  const [detail, models, quota] = await Promise.all([
    id ? orNotFound(() => getAgent(account, { id })) : null,
    listPublicModels(),
    // Asked up front, so nobody fills in the whole form only to be refused at the end.
    id ? null : describeAgentQuota(account, getRequestLanguage(request)),
  ]);
  return { detail, models, plugins: [...AGENT_PLUGINS] as string[], limitMessage: quota?.message ?? null };
}

/**
 * One editor per agent: opening another agent starts a fresh one, but a new agent that the editor
 * itself just saved keeps it, with the form's state and the debug chat's conversation.
 */
function useEditorKey(id: string | null) {
  const createdHere = useRef<string | null>(null);
  const fresh = useRef(0);
  const shown = useRef<{ id: string | null; key: string } | null>(null);
  if (!shown.current || shown.current.id !== id) {
    const keep = shown.current?.id === null && id !== null && createdHere.current === id;
    // A kept editor's key is a "new" one: the next new agent gets another.
    shown.current = { id, key: keep ? shown.current!.key : (id ?? `new-${++fresh.current}`) };
  }
  return { key: shown.current.key, adopt: (created: string) => void (createdHere.current = created) };
}

export default function AgentDetailPage() {
  const { detail, models, plugins, limitMessage } = useLoaderData<typeof loader>();
  const editor = useEditorKey(detail?.id ?? null);
  return <AgentEditor key={editor.key} initial={detail} models={models} plugins={plugins} limitMessage={limitMessage} onCreated={editor.adopt} />;
}
