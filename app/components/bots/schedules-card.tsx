// The bot's scheduled messages, soonest first: what each says (and the picture or video it sends),
// to whom, how it repeats and when it goes out next ("what will be sent next"), with add, edit and delete.
import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { App, Button, Card, Empty, Space, Tag, Typography, type ButtonProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { LocalDate } from "../ui/local-date";
import { loopLabel } from "./schedule-labels";
import { ScheduleMediaThumb } from "./schedule-media-field";
import { ScheduleModal } from "./schedule-modal";
import type { TScheduleView, TTargetView } from "./types";

export function TargetTag({ target }: { target: { kind: string; id: string; name?: string } }) {
  const { t } = useTranslation("bots");
  return (
    <Tag className="bots-target" color={target.kind === "group" ? "blue" : undefined} title={target.id}>
      {t(`target.${target.kind}`)} · {target.name || target.id}
    </Tag>
  );
}

function NextSend({ s }: { s: TScheduleView }) {
  const { t } = useTranslation("bots");
  if (!s.enabled) return <Typography.Text type="secondary">{t("schedule.paused")}</Typography.Text>;
  if (!s.next_run_at) return <Typography.Text type="secondary">{s.last_run_at ? t("schedule.done") : t("schedule.no_next")}</Typography.Text>;
  return (
    <Typography.Text strong data-testid="schedule-next" data-at={s.next_run_at}>
      <LocalDate iso={s.next_run_at} withTime />
    </Typography.Text>
  );
}

export function SchedulesCard({
  botId,
  schedules,
  targets,
  onChange,
}: {
  botId: string;
  schedules: TScheduleView[];
  targets: TTargetView[];
  onChange: () => Promise<void>;
}) {
  const { t } = useTranslation("bots");
  const { message, modal } = App.useApp();
  const [editing, setEditing] = useState<TScheduleView | "new" | null>(null);
  const removeNow = useMutation(async (s: TScheduleView) => {
    await callTrpc(() => trpc.bots.schedules.delete.mutate({ bot_id: botId, schedule_id: s.id }));
    message.success(t("schedule.deleted"));
    await onChange();
  });

  const remove = (s: TScheduleView) =>
    modal.confirm({
      title: t("schedule.delete_confirm"),
      content: (s.content || s.media?.name || "").slice(0, 80),
      okButtonProps: { danger: true, "data-testid": "schedule-delete-ok" } as ButtonProps,
      onOk: () => removeNow.run(s),
    });

  return (
    <Card
      title={t("schedule.title")}
      className="bots-section"
      data-testid="bot-schedules"
      extra={
        <Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="schedule-add">
          {t("schedule.add")}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary" className="bots-note">
        {t("schedule.intro")}
      </Typography.Paragraph>
      {schedules.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("schedule.empty")} data-testid="schedules-empty" />
      ) : (
        <ul className="bots-list" data-testid="schedule-list">
          {schedules.map((s) => (
            <li key={s.id} className="bots-list__item" data-testid="schedule-row" data-schedule-id={s.id} data-loop={s.loop}>
              <div className="bots-list__main">
                {s.content && (
                  <div className="bots-list__content" data-testid="schedule-content-text">
                    {s.content}
                  </div>
                )}
                {s.media && (
                  <div className="bots-media__chosen bots-media__chosen--row" data-testid="schedule-row-media" data-item-id={s.media.id}>
                    <ScheduleMediaThumb media={s.media} className="bots-media__thumb bots-media__thumb--small" />
                    <span className="bots-media__name" title={s.media.name}>
                      {s.media.name}
                    </span>
                  </div>
                )}
                <div className="bots-list__targets">
                  {s.targets.map((x) => (
                    <TargetTag key={`${x.kind}:${x.id}`} target={x} />
                  ))}
                </div>
                <div className="bots-list__meta">
                  <span data-testid="schedule-loop-label">{loopLabel(s, t)}</span>
                  <span>
                    {t("schedule.next")} <NextSend s={s} />
                  </span>
                  {s.last_run_at && (
                    <span className="console__hint">
                      {t("schedule.last")} <LocalDate iso={s.last_run_at} withTime />
                    </span>
                  )}
                </div>
              </div>
              <Space className="bots-list__actions">
                <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(s)} data-testid="schedule-edit">
                  {t("schedule.edit")}
                </Button>
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(s)}
                  data-testid="schedule-delete"
                  aria-label={t("schedule.delete")}
                />
              </Space>
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <ScheduleModal
          botId={botId}
          schedule={editing === "new" ? null : editing}
          targets={targets}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            await onChange();
          }}
        />
      )}
    </Card>
  );
}
