// /admin/app_review: platform administrators review submitted apps: approve (on the shelf) or
// remove with a reason the owner sees on /my_app.
import { PictureOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Alert, Avatar, Button, Card, Empty, Form, Input, Modal, Space, Tag, type ButtonProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LocalDate } from "../../components/ui/local-date";
import { useAppAction } from "../../components/apps/use-app-action";
import { requirePageRole } from "../../lib/auth.server";
import { callTrpc, trpc } from "../../lib/trpc";
import { zodRule } from "../../lib/zod-rule";
import { listReviewQueue } from "../../../server/apps/apps.service";
import { ZRemoveAppInput } from "../../../server/apps/apps.schema";
import { appReviewPolicy } from "../../../server/env";
import "../../components/apps/app-form/app-form.css";

export const handle = { i18n: ["apps"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requirePageRole(request, "platform_admin");
  return { queue: await listReviewQueue(account), policy: appReviewPolicy() };
}

export default function AppReviewPage() {
  const { t } = useTranslation("apps");
  const { queue, policy } = useLoaderData<typeof loader>();
  const { busyId, run, confirm } = useAppAction();
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const [form] = Form.useForm<{ reason: string }>();

  const submitRemoval = async () => {
    const { reason } = await form.validateFields();
    const target = removing!;
    setRemoving(null);
    await run(target.id, () => callTrpc(() => trpc.apps.review.remove.mutate({ id: target.id, reason })), t("done.removed"));
    form.resetFields();
  };

  return (
    <div className="console__page" data-testid="app-review-page">
      <h1 className="console__title">{t("review.title")}</h1>
      {/* Read-only: the policy is a setting of the deployment (APP_REVIEW_POLICY), not of this page. */}
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title={t(`review.policy.${policy}.title`)}
        description={t(`review.policy.${policy}.body`)}
        data-testid="app-review-policy"
        data-policy={policy}
      />
      {queue.length === 0 ? (
        <Card>
          <Empty description={t("review.empty")} data-testid="app-review-empty" />
        </Card>
      ) : (
        queue.map((app) => (
          <Card key={app.id} className="apps-card" data-testid="app-review-item" data-name={app.name}>
            <div className="apps-card__top">
              <Avatar size={56} shape="square" src={app.icon_url || undefined} icon={<PictureOutlined />} />
              <div className="apps-card__body">
                <Space size={6} wrap>
                  <span className="apps-card__name">{app.name}</span>
                  <Tag>{t(`type.${app.type}`)}</Tag>
                  {app.link_open && (
                    <Tag color="green" data-testid="app-review-link-open">
                      {t("review.link_open")}
                    </Tag>
                  )}
                  {app.input.tags.map((tag) => (
                    <Tag key={tag} color="blue">
                      {tag}
                    </Tag>
                  ))}
                </Space>
                <div className="apps-card__intro">{app.introduction}</div>
                <div className="app-form__muted">
                  {t("review.by", { owner: app.owner, agent: app.agent_names.join(", ") })} · <LocalDate iso={app.submitted_at} />
                </div>
              </div>
            </div>
            <div className="apps-card__actions">
              <Button
                type="primary"
                size="small"
                loading={busyId === app.id}
                onClick={() =>
                  confirm(
                    app.id,
                    t("review.approve_confirm", { name: app.name }),
                    () => callTrpc(() => trpc.apps.review.approve.mutate({ id: app.id })),
                    t("done.approved"),
                  )
                }
                data-testid="app-review-approve"
              >
                {t("review.approve")}
              </Button>
              <Button
                danger
                size="small"
                loading={busyId === app.id}
                onClick={() => setRemoving({ id: app.id, name: app.name })}
                data-testid="app-review-remove"
              >
                {t("review.remove")}
              </Button>
            </div>
          </Card>
        ))
      )}
      <Modal
        open={Boolean(removing)}
        title={t("review.remove_title", { name: removing?.name ?? "" })}
        onOk={submitRemoval}
        onCancel={() => setRemoving(null)}
        okButtonProps={{ danger: true, "data-testid": "app-review-remove-ok" } as ButtonProps}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item name="reason" label={t("review.reason")} rules={[zodRule(ZRemoveAppInput.shape.reason, t)]}>
            <Input.TextArea rows={3} maxLength={200} showCount data-testid="app-review-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
