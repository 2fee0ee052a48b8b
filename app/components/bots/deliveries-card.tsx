// What the bot sent on its own ("what was sent"): scheduled messages and greetings, newest first,
// each with its time, target, content and whether it went out (with the platform's error if not,
// or the note that its picture or video had been deleted from the library and the text went alone).
import { PaperClipOutlined } from "@ant-design/icons";
import { Button, Card, Empty, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../lib/trpc";
import { LocalDate } from "../ui/local-date";
import { DELIVERY_MEDIA_MISSING } from "../../../server/bots/bots.schema";
import { TargetTag } from "./schedules-card";
import type { TDeliveryView } from "./types";

const PAGE = 50;
const STATE_COLORS = { sent: "success", failed: "error", sending: "processing" } as const;

export function DeliveriesCard({ botId, deliveries, onMore }: { botId: string; deliveries: TDeliveryView[]; onMore: (older: TDeliveryView[]) => void }) {
  const { t } = useTranslation("bots");
  const [loading, setLoading] = useState(false);
  const [done, setDone] = useState(deliveries.length < PAGE);
  const more = async () => {
    const last = deliveries[deliveries.length - 1];
    if (!last) return;
    setLoading(true);
    try {
      const older = await callTrpc(() => trpc.bots.deliveries.query({ bot_id: botId, before: last.created_at, take: PAGE }));
      setDone(older.length < PAGE);
      onMore(older);
    } finally {
      setLoading(false);
    }
  };
  return (
    <Card title={t("deliveries.title")} className="bots-section" data-testid="bot-deliveries">
      {deliveries.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("deliveries.empty")} data-testid="deliveries-empty" />
      ) : (
        <ul className="bots-list">
          {deliveries.map((d) => (
            <li key={d.id} className="bots-list__item" data-testid="delivery-row" data-state={d.state}>
              <div className="bots-list__main">
                <div className="bots-list__meta">
                  <LocalDate iso={d.sent_at ?? d.due_at} withTime />
                  <Tag color={STATE_COLORS[d.state] ?? "default"}>{t(`deliveries.state.${d.state}`)}</Tag>
                  <Tag>{t(`deliveries.kind.${d.kind}`)}</Tag>
                  <TargetTag target={d.target} />
                  {d.media_item_id && <Tag icon={<PaperClipOutlined />}>{t("deliveries.with_media")}</Tag>}
                </div>
                <div className="bots-list__content">{d.content}</div>
                {d.error === DELIVERY_MEDIA_MISSING ? (
                  <Typography.Text type={d.state === "failed" ? "danger" : "warning"} className="bots-note" data-testid="delivery-media-missing">
                    {t("deliveries.media_missing")}
                  </Typography.Text>
                ) : (
                  d.state === "failed" &&
                  d.error && (
                    <Typography.Text type="danger" className="bots-note" data-testid="delivery-error">
                      {t("deliveries.error", { error: d.error })}
                    </Typography.Text>
                  )
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {!done && deliveries.length > 0 && (
        <Button block loading={loading} onClick={() => void more()} data-testid="deliveries-more">
          {t("deliveries.more")}
        </Button>
      )}
    </Card>
  );
}
