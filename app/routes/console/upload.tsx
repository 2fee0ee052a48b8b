// /upload?id=: submit an agent to the market: its draft, or the version published for the owner's
// own use as it is (no new version to invent; it keeps working while reviewed). Shows what reviewers
// will see, the review notice, a refused listing's reason, and while the submission waits, lets
// the owner take it back.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { Alert, App, Avatar, Button, Card, Descriptions, Empty, Result, Space, Typography } from "antd";
import { RobotOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { AgentStateTag } from "../../components/agent-editor/agent-state-tag";
import { formatZ } from "../../../server/money/money-format";
import { useAppNavigate } from "../../components/app-link";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { getAgent } from "../../../server/agents/agents.service";
import "../../components/agent-editor/agent-editor.css";

export const handle = { i18n: ["agents"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const id = new URL(request.url).searchParams.get("id") ?? "";
  return { detail: await orNotFound(() => getAgent(account, { id })) };
}

export default function UploadAgent() {
  const { t } = useTranslation("agents");
  const { message } = App.useApp();
  const navigate = useAppNavigate();
  const revalidator = useRevalidator();
  const { detail } = useLoaderData<typeof loader>();
  const waiting = detail.under_review;
  const published = detail.live?.state === "published" ? detail.live : null;
  // What goes to review: the submission already waiting, else the draft (the editor shows it), else
  // the published version as it is.
  const candidate = waiting ?? detail.draft ?? published;
  const waitingLive = waiting?.state === "published_in_review";
  const config = detail.config;
  // The page knows one configuration: the one the editor shows. It describes the candidate only if
  // that is the same version (a newer draft may sit beside a waiting submission).
  const describes = candidate?.id === detail.config_version_id;

  const { run, busy } = useMutation(async (job: () => Promise<unknown>, done: string) => {
    await callTrpc(job);
    message.success(done);
    revalidator.revalidate();
  });
  const submit = (source: "draft" | "published") => run(() => trpc.agents.submit.mutate({ id: detail.id, source }), t("upload.submitted"));
  const withdraw = () => run(() => trpc.agents.withdraw.mutate({ id: detail.id }), waitingLive ? t("upload.withdrawn_published") : t("upload.withdrawn"));
  const price = (micro: number) => (micro ? t("upload.yuan", { amount: formatZ(micro) }) : t("upload.free"));

  return (
    <div className="console__page" data-testid="upload">
      <div className="agent-page__head">
        <h1 className="console__title">{t("upload.title")}</h1>
        <Button onClick={() => navigate(`/agentDetail?id=${encodeURIComponent(detail.id)}`)}>{t("upload.back_to_editor")}</Button>
      </div>
      {!candidate ? (
        <Card>
          <Empty description={t("upload.nothing")} data-testid="upload-nothing" />
        </Card>
      ) : (
        <Space orientation="vertical" size={16} style={{ width: "100%" }}>
          {waiting ? (
            <Result
              status="info"
              title={t("upload.waiting_title", { version: waiting.version })}
              subTitle={waitingLive ? t("upload.waiting_live_body") : t("upload.waiting_body")}
              data-testid="upload-waiting"
              extra={
                <Button danger loading={busy} onClick={() => void withdraw()} data-testid="upload-withdraw">
                  {t("upload.withdraw")}
                </Button>
              }
            />
          ) : candidate === published ? (
            <Alert
              type="info"
              showIcon
              title={t("upload.published_notice_title", { version: candidate.version })}
              description={t("upload.published_notice_body")}
              data-testid="upload-notice"
            />
          ) : (
            <Alert type="info" showIcon title={t("upload.notice_title")} description={t("upload.notice_body")} data-testid="upload-notice" />
          )}
          {!waiting && published?.removed_reason && (
            <Alert
              type="warning"
              showIcon
              title={t("upload.refused_title", { version: published.version })}
              description={t("upload.refused_body", { reason: published.removed_reason })}
              data-testid="upload-refused"
            />
          )}
          <Card title={waiting ? t("upload.what_waiting") : t("upload.what")} data-testid="upload-summary">
            <Space align="start" size={16} style={{ marginBottom: 12 }}>
              <Avatar size={64} shape="square" src={config.avatar_url || undefined} icon={<RobotOutlined />} />
              <div>
                <Typography.Title level={4} style={{ margin: 0 }} data-testid="upload-name">
                  {detail.name}
                </Typography.Title>
                <Space size={6}>
                  <Typography.Text data-testid="upload-version">v{candidate.version}</Typography.Text>
                  <AgentStateTag state={candidate.state} />
                </Space>
              </div>
            </Space>
            {describes ? (
              <Descriptions column={{ xs: 1, sm: 2 }} size="small" bordered>
                <Descriptions.Item label={t("fields.introduction")} span="filled">
                  {config.introduction}
                </Descriptions.Item>
                <Descriptions.Item label={t("fields.update_note")} span="filled">
                  {config.update_note || "—"}
                </Descriptions.Item>
                <Descriptions.Item label={t("pricing.sale_price")}>{price(config.sale_price_micro)}</Descriptions.Item>
                <Descriptions.Item label={t("pricing.trial_count")}>{config.trial_count}</Descriptions.Item>
                <Descriptions.Item label={t("pricing.use_price")}>{price(config.use_price_micro)}</Descriptions.Item>
                <Descriptions.Item label={t("pricing.purchase_price")}>{price(config.purchase_price_micro)}</Descriptions.Item>
                <Descriptions.Item label={t("fields.original")}>{config.original ? t("upload.yes") : t("upload.no")}</Descriptions.Item>
                <Descriptions.Item label={t("fields.model")}>{config.model_key}</Descriptions.Item>
              </Descriptions>
            ) : (
              <Typography.Text type="secondary">{t("upload.newer_draft")}</Typography.Text>
            )}
            {!waiting && (
              <Space style={{ marginTop: 16 }} wrap>
                <Button type="primary" loading={busy} onClick={() => void submit(candidate === published ? "published" : "draft")} data-testid="upload-submit">
                  {candidate === published ? t("upload.submit_published", { version: candidate.version }) : t("upload.submit")}
                </Button>
                {/* Edits waiting in a draft need not hold back the version already in use. */}
                {candidate !== published && published && (
                  <Button loading={busy} onClick={() => void submit("published")} data-testid="upload-submit-published">
                    {t("upload.submit_published", { version: published.version })}
                  </Button>
                )}
                <Typography.Text type="secondary">{t("upload.immutable")}</Typography.Text>
              </Space>
            )}
          </Card>
        </Space>
      )}
    </div>
  );
}
