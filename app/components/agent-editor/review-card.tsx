// One submission in the review queue: everything a reviewer needs to decide, and the decision.
import { RobotOutlined } from "@ant-design/icons";
import { Avatar, Button, Card, Collapse, Descriptions, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { TAgentInput } from "../../../server/agents/agents.schema";
import { LocalDate } from "../ui/local-date";
import { formatZ } from "../../../server/money/money-format";

export type TReviewItem = {
  id: string;
  version: string;
  state?: string;
  agent_id: string;
  name: string;
  avatar_url: string | null;
  owner: string;
  submitted_at: string | null;
  update_note: string;
  config: TAgentInput;
};

export function ReviewCard({ item, busy, onApprove, onReject }: { item: TReviewItem; busy: boolean; onApprove: () => void; onReject: () => void }) {
  const { t } = useTranslation("agents");
  const c = item.config;
  const price = (micro: number) => (micro ? t("upload.yuan", { amount: formatZ(micro) }) : t("upload.free"));
  const yes = (b: boolean) => (b ? t("upload.yes") : t("upload.no"));
  return (
    <Card
      data-testid="review-item"
      data-name={item.name}
      data-version={item.version}
      title={
        <Space size={10}>
          <Avatar shape="square" src={item.avatar_url ?? undefined} icon={<RobotOutlined />} />
          <span>{item.name}</span>
          <Tag>v{item.version}</Tag>
          {item.state === "published_in_review" && (
            <Tag color="green" data-testid="review-published">
              {t("review.published_tag")}
            </Tag>
          )}
        </Space>
      }
      extra={
        <Space wrap>
          <Button danger onClick={onReject} disabled={busy} data-testid="review-reject">
            {t("review.reject")}
          </Button>
          <Button type="primary" onClick={onApprove} loading={busy} data-testid="review-approve">
            {t("review.approve")}
          </Button>
        </Space>
      }
    >
      {/* Approving lists it as it runs today; refusing leaves it published for its owner. */}
      {item.state === "published_in_review" && <Typography.Paragraph type="secondary">{t("review.published_note")}</Typography.Paragraph>}
      <Descriptions column={{ xs: 1, sm: 2 }} size="small">
        <Descriptions.Item label={t("review.owner")}>{item.owner}</Descriptions.Item>
        <Descriptions.Item label={t("review.submitted_at")}>{item.submitted_at ? <LocalDate iso={item.submitted_at} withTime /> : "—"}</Descriptions.Item>
        <Descriptions.Item label={t("fields.introduction")} span="filled">
          {c.introduction}
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.update_note")} span="filled">
          {item.update_note || "—"}
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.model")}>
          {c.model_key}
          {c.model_version ? ` · ${c.model_version}` : ""}
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.original")}>{yes(c.original)}</Descriptions.Item>
        <Descriptions.Item label={t("fields.plugins")}>{c.plugins.length ? c.plugins.map((p) => t(`plugins.${p}`)).join(", ") : "—"}</Descriptions.Item>
        <Descriptions.Item label={t("fields.networking")}>{yes(c.networking)}</Descriptions.Item>
        <Descriptions.Item label={t("pricing.sale_price")}>{price(c.sale_price_micro)}</Descriptions.Item>
        <Descriptions.Item label={t("pricing.trial_count")}>{c.trial_count}</Descriptions.Item>
        <Descriptions.Item label={t("pricing.use_price")}>{price(c.use_price_micro)}</Descriptions.Item>
        <Descriptions.Item label={t("pricing.purchase_price")}>{price(c.purchase_price_micro)}</Descriptions.Item>
      </Descriptions>
      <Collapse
        size="small"
        style={{ marginTop: 12 }}
        items={[
          {
            key: "content",
            label: t("review.content"),
            children: (
              <Space orientation="vertical" style={{ width: "100%" }}>
                {c.details && <Typography.Paragraph style={{ whiteSpace: "pre-wrap" }}>{c.details}</Typography.Paragraph>}
                <Typography.Text strong>{t("fields.role_style")}</Typography.Text>
                <Typography.Paragraph style={{ whiteSpace: "pre-wrap" }}>{c.role_style || "—"}</Typography.Paragraph>
                <Typography.Text strong>{t("fields.prompt")}</Typography.Text>
                <Typography.Paragraph style={{ whiteSpace: "pre-wrap" }}>{c.prompt || "—"}</Typography.Paragraph>
                <Typography.Text strong>{t("sections.variables")}</Typography.Text>
                <Typography.Paragraph>
                  {c.variables.length ? c.variables.map((v) => `${v.name}${v.required ? " *" : ""}`).join(", ") : "—"}
                </Typography.Paragraph>
                <Typography.Text strong>{t("fields.welcome_message")}</Typography.Text>
                <Typography.Paragraph style={{ whiteSpace: "pre-wrap" }}>{c.welcome_message || "—"}</Typography.Paragraph>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
