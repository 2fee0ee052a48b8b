// /train: my training sets of every type, with characters, state and progress, the agents that use
// each, and the actions on them; new Q&A, smart text and database sets start here.
import { DatabaseOutlined, FileTextOutlined, MessageOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button, Card, Empty, Grid, Progress, Space, Table, Tag, Tooltip } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink, useAppNavigate, useIsMobi } from "../../components/app-link";
import { LocalDate } from "../../components/ui/local-date";
import { SetActionButtons } from "../../components/train/set-action-buttons";
import { editPathOf, formatNumber } from "../../components/train/train-format";
import { TrainingStateTag } from "../../components/train/training-state-tag";
import { usePolling } from "../../components/train/use-polling";
import { useTrainingSetActions } from "../../components/train/use-set-actions";
import { requireSessionAccount } from "../../lib/auth.server";
import { callTrpc, trpc } from "../../lib/trpc";
import { FREE_TRAINING_CHARS } from "../../../server/accounts/editions";
import { listTrainingSets } from "../../../server/knowledge/training-sets.service";
import type { TTrainingSetSummary } from "../../../server/knowledge/training-sets.schema";
import "../../components/train/train.css";

export const handle = { i18n: ["train", "database"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return { sets: await listTrainingSets(account), limit: FREE_TRAINING_CHARS };
}

function AgentTags({ set }: { set: TTrainingSetSummary }) {
  const { t } = useTranslation("train");
  if (!set.agents.length) return <span className="train-muted">{t("list.no_agents")}</span>;
  return (
    <span className="train-agents" data-testid="train-agents">
      {set.agents.map((a) => (
        <AppLink key={a.id} to={`/agentDetail?id=${encodeURIComponent(a.id)}`}>
          <Tag color="blue">{a.name}</Tag>
        </AppLink>
      ))}
    </span>
  );
}

export default function TrainPage() {
  const { t, i18n } = useTranslation("train");
  const loaded = useLoaderData<typeof loader>();
  const navigate = useAppNavigate();
  const screens = Grid.useBreakpoint();
  const narrow = useIsMobi() || screens.md === false;
  const [sets, setSets] = useState<TTrainingSetSummary[]>(loaded.sets);
  const refresh = async () => setSets(await callTrpc(() => trpc.trainingSets.list.query()));
  const { busyId, ask } = useTrainingSetActions(() => void refresh());
  usePolling(
    sets.some((s) => s.state === "training"),
    refresh,
  );

  const used = sets.reduce((n, s) => n + s.char_count, 0);
  const num = (n: number) => formatNumber(n, i18n.language);
  const name = (s: TTrainingSetSummary) => (
    <div>
      <AppLink to={editPathOf(s)} className="train-name">
        {s.name}
      </AppLink>
      {s.introduction && <div className="train-intro">{s.introduction}</div>}
    </div>
  );
  const typeTag = (s: TTrainingSetSummary) => <Tag data-testid="train-type">{t(`types.${s.type}`)}</Tag>;
  const state = (s: TTrainingSetSummary) => <TrainingStateTag state={s.state} progress={s.progress} reason={s.failure_reason} />;

  return (
    <div className="console__page train-page" data-testid="train-page">
      <div className="train-page__head">
        <div>
          <h1 className="console__title">{t("title")}</h1>
          <p className="train-page__sub">{t("subtitle")}</p>
        </div>
        <div className="train-page__usage">
          <span className="train-page__usage-label" data-testid="train-chars-used">
            {t("chars_used", { used: num(used), limit: num(loaded.limit) })}
          </span>
          <Progress
            percent={Math.min(100, Math.round((used / loaded.limit) * 1000) / 10)}
            size="small"
            status={used >= loaded.limit ? "exception" : "normal"}
          />
        </div>
      </div>
      <Space wrap style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<MessageOutlined />} onClick={() => navigate("/create_normal_train")} data-testid="train-create-standard">
          {t("create.standard")}
        </Button>
        <Button icon={<FileTextOutlined />} onClick={() => navigate("/create_train")} data-testid="train-create-smart">
          {t("create.smart")}
        </Button>
        <Button icon={<DatabaseOutlined />} onClick={() => navigate("/Createdatabases")} data-testid="train-create-database">
          {t("create.database")}
        </Button>
      </Space>

      {sets.length === 0 ? (
        <Card>
          <Empty description={t("list.empty")} data-testid="train-empty" />
        </Card>
      ) : narrow ? (
        <div className="train-cards" data-testid="train-list">
          {sets.map((s) => (
            <Card key={s.id} className="train-card" data-testid="train-row" data-set-id={s.id}>
              <div className="train-card__top">
                {name(s)}
                {typeTag(s)}
              </div>
              <div className="train-card__meta">
                {state(s)}
                <span>
                  {t("list.chars")}: {num(s.char_count)}
                </span>
              </div>
              <div className="train-card__meta">
                <span>{t("list.agents")}:</span>
                <AgentTags set={s} />
              </div>
              <SetActionButtons set={s} busy={busyId === s.id} onAction={(k) => ask(s, k)} />
            </Card>
          ))}
        </div>
      ) : (
        <Card styles={{ body: { padding: 0 } }}>
          <Table<TTrainingSetSummary>
            rowKey="id"
            dataSource={sets}
            pagination={sets.length > 20 ? { pageSize: 20 } : false}
            data-testid="train-list"
            onRow={(s) => ({ "data-testid": "train-row", "data-set-id": s.id }) as never}
            columns={[
              { title: t("list.name"), key: "name", render: (_, s) => name(s) },
              { title: t("list.type"), key: "type", width: 140, render: (_, s) => typeTag(s) },
              {
                title: t("list.chars"),
                key: "chars",
                width: 110,
                align: "right",
                render: (_, s) => <span data-testid="train-chars">{num(s.char_count)}</span>,
              },
              { title: t("list.state"), key: "state", width: 170, render: (_, s) => state(s) },
              { title: t("list.agents"), key: "agents", width: 200, render: (_, s) => <AgentTags set={s} /> },
              {
                title: t("list.updated"),
                key: "updated",
                width: 120,
                render: (_, s) => (
                  <Tooltip title={<LocalDate iso={s.updated_at} withTime />}>
                    <span>
                      <LocalDate iso={s.updated_at} />
                    </span>
                  </Tooltip>
                ),
              },
              {
                title: t("list.actions"),
                key: "actions",
                width: 260,
                render: (_, s) => <SetActionButtons set={s} busy={busyId === s.id} onAction={(k) => ask(s, k)} />,
              },
            ]}
          />
        </Card>
      )}
    </div>
  );
}
