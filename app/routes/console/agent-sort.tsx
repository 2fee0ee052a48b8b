// /agentSort: my agents' order (drag on desktop, up/down anywhere), saved with one reorder call.
import { ArrowDownOutlined, ArrowUpOutlined, HolderOutlined, RobotOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { App, Avatar, Button, Card, Empty, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AgentStateTag } from "../../components/agent-editor/agent-state-tag";
import { useLeaveGuard } from "../../components/agent-editor/use-leave-guard";
import { useAppNavigate } from "../../components/app-link";
import { requireSessionAccount } from "../../lib/auth.server";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { listAgents } from "../../../server/agents/agents.service";
import "../../components/agent-editor/agent-editor.css";

export const handle = { i18n: ["agents"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return { agents: await listAgents(account) };
}

function move<T>(list: T[], from: number, to: number) {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

export default function AgentSort() {
  const { t } = useTranslation("agents");
  const { message } = App.useApp();
  const navigate = useAppNavigate();
  const { agents: initial } = useLoaderData<typeof loader>();
  const [agents, setAgents] = useState(initial);
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const dirty = agents.some((a, i) => a.id !== initial[i]?.id);
  const [saved, setSaved] = useState(false);
  const guard = useLeaveGuard(dirty && !saved);

  const reorder = (from: number, to: number) => {
    if (to < 0 || to >= agents.length || from === to) return;
    setSaved(false);
    setAgents((list) => move(list, from, to));
  };
  const { run: save, busy } = useMutation(async () => {
    await callTrpc(() => trpc.agents.reorder.mutate({ ids: agents.map((a) => a.id) }));
    setSaved(true);
    message.success(t("sort.saved"));
    guard.release();
    navigate("/creator");
  });

  return (
    <div className="console__page" data-testid="agent-sort">
      <div className="agent-page__head">
        <h1 className="console__title">{t("sort.title")}</h1>
        <Space>
          <Button onClick={() => navigate("/creator")}>{t("sort.back")}</Button>
          <Button type="primary" loading={busy} disabled={!dirty || saved} onClick={() => void save()} data-testid="sort-save">
            {t("sort.save")}
          </Button>
        </Space>
      </div>
      <p className="console__hint">{t("sort.hint")}</p>
      {agents.length === 0 ? (
        <Card>
          <Empty description={t("creator.empty")} />
        </Card>
      ) : (
        <div className="agent-sort__list" onDragEnd={() => (setDragging(null), setOver(null))}>
          {agents.map((a, i) => (
            <div
              key={a.id}
              draggable
              className={`agent-sort__row${dragging === i ? " agent-sort__row--dragging" : ""}${over === i && dragging !== i ? " agent-sort__row--over" : ""}`}
              data-testid="sort-row"
              data-name={a.name}
              onDragStart={(e) => {
                e.dataTransfer.effectAllowed = "move";
                setDragging(i);
              }}
              onDragOver={(e) => {
                e.preventDefault();
                setOver(i);
              }}
              onDrop={(e) => {
                e.preventDefault();
                if (dragging !== null) reorder(dragging, i);
                setDragging(null);
                setOver(null);
              }}
            >
              <HolderOutlined aria-hidden />
              <Avatar shape="square" src={a.avatar_url ?? undefined} icon={<RobotOutlined />} />
              <span className="agent-sort__name">{a.name}</span>
              {a.live && <AgentStateTag state={a.live.state} />}
              <Button
                size="small"
                icon={<ArrowUpOutlined />}
                disabled={i === 0}
                onClick={() => reorder(i, i - 1)}
                aria-label={t("sort.up")}
                data-testid="sort-up"
              />
              <Button
                size="small"
                icon={<ArrowDownOutlined />}
                disabled={i === agents.length - 1}
                onClick={() => reorder(i, i + 1)}
                aria-label={t("sort.down")}
                data-testid="sort-down"
              />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
