// /admin/agent_review: platform administrators review agent submissions (approve → on the market's
// shelf, reject with a reason) and take listed versions down with a reason.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { App, Avatar, Button, Card, Empty, Form, Input, List, Modal, Space, Tabs, Tag, type ButtonProps } from "antd";
import { RobotOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ReviewCard } from "../../components/agent-editor/review-card";
import { LocalDate } from "../../components/ui/local-date";
import { requirePageRole } from "../../lib/auth.server";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { zodRule } from "../../lib/zod-rule";
import { listReviewQueue } from "../../../server/agents/agents.service";
import { listShelvedVersions } from "../../../server/agents/agent-pages.service";
import "../../components/agent-editor/agent-editor.css";

export const handle = { i18n: ["agents"] };

const ZReason = z.string().trim().min(1, "validation.reject_reason").max(200, "validation.reject_reason");
type TDecision = { kind: "reject" | "takeDown"; versionId: string; name: string; version: string };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requirePageRole(request, "platform_admin");
  const [queue, shelf] = await Promise.all([listReviewQueue(account), listShelvedVersions(account)]);
  return { queue, shelf };
}

export default function AgentReview() {
  const { t } = useTranslation("agents");
  const { message, modal } = App.useApp();
  const revalidator = useRevalidator();
  const { queue, shelf } = useLoaderData<typeof loader>();
  const [deciding, setDeciding] = useState<TDecision | null>(null);
  const { run: approveNow, busyKey: busy } = useMutation(async (versionId: string) => {
    await callTrpc(() => trpc.agents.review.approve.mutate({ versionId }));
    message.success(t("review.approved"));
    revalidator.revalidate();
  });

  const approve = (versionId: string, name: string, version: string) =>
    modal.confirm({
      title: t("review.approve_confirm", { name, version }),
      okButtonProps: { "data-testid": "review-approve-ok" } as ButtonProps,
      onOk: () => approveNow(versionId),
    });

  const queueTab =
    queue.length === 0 ? (
      <Card>
        <Empty description={t("review.empty")} data-testid="review-empty" />
      </Card>
    ) : (
      <Space orientation="vertical" size={16} style={{ width: "100%" }}>
        {queue.map((item) => (
          <ReviewCard
            key={item.id}
            item={item}
            busy={busy === item.id}
            onApprove={() => approve(item.id, item.name, item.version)}
            onReject={() => setDeciding({ kind: "reject", versionId: item.id, name: item.name, version: item.version })}
          />
        ))}
      </Space>
    );
  const shelfTab = (
    <Card>
      <List
        dataSource={shelf}
        locale={{ emptyText: t("review.shelf_empty") }}
        renderItem={(s) => (
          <List.Item
            data-testid="shelf-item"
            data-name={s.name}
            actions={[
              <Button
                key="down"
                danger
                size="small"
                onClick={() => setDeciding({ kind: "takeDown", versionId: s.id, name: s.name, version: s.version })}
                data-testid="shelf-take-down"
              >
                {t("review.take_down")}
              </Button>,
            ]}
          >
            <List.Item.Meta
              avatar={<Avatar shape="square" src={s.avatar_url ?? undefined} icon={<RobotOutlined />} />}
              title={
                <Space size={6}>
                  {s.name}
                  <Tag>v{s.version}</Tag>
                </Space>
              }
              description={
                <>
                  {s.owner} · {s.published_at ? <LocalDate iso={s.published_at} /> : "—"}
                </>
              }
            />
          </List.Item>
        )}
      />
    </Card>
  );

  return (
    <div className="console__page" data-testid="agent-review">
      <h1 className="console__title">{t("review.title")}</h1>
      <Tabs
        items={[
          { key: "queue", label: t("review.queue_tab", { count: queue.length }), children: queueTab },
          { key: "shelf", label: <span data-testid="review-shelf-tab">{t("review.shelf_tab", { count: shelf.length })}</span>, children: shelfTab },
        ]}
      />
      <ReasonModal decision={deciding} onClose={() => setDeciding(null)} onDone={() => (setDeciding(null), revalidator.revalidate())} />
    </div>
  );
}

function ReasonModal({ decision, onClose, onDone }: { decision: TDecision | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation("agents");
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const { run: decide, busy } = useMutation(async (chosen: TDecision, reason: string) => {
    const input = { versionId: chosen.versionId, reason };
    await callTrpc(() => (chosen.kind === "reject" ? trpc.agents.review.reject.mutate(input) : trpc.agents.review.takeDown.mutate(input)));
    message.success(chosen.kind === "reject" ? t("review.rejected") : t("review.taken_down"));
    form.resetFields();
    onDone();
  });
  const submit = async () => {
    if (!decision) return;
    // The form shows its own errors; a refused validation is not a failure of the page.
    const values = await form.validateFields().catch(() => null);
    if (values) await decide(decision, values.reason);
  };
  const title = decision
    ? t(decision.kind === "reject" ? "review.reject_title" : "review.take_down_title", { name: decision.name, version: decision.version })
    : "";
  return (
    <Modal
      open={Boolean(decision)}
      title={title}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      okButtonProps={{ danger: true, "data-testid": "review-reason-ok" } as ButtonProps}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item name="reason" label={t("review.reason")} rules={[zodRule(ZReason, t)]}>
          <Input.TextArea rows={3} maxLength={200} showCount placeholder={t("review.reason_placeholder")} data-testid="review-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
