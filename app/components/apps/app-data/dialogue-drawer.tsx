// One dialogue's messages for the app's owner, as plain text (never rendered as HTML).
import { DislikeFilled, LikeFilled } from "@ant-design/icons";
import { Drawer, Empty, Spin, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/api-client";
import { callTrpc, trpc } from "../../../lib/trpc";
import { LocalDate } from "../../ui/local-date";
import type { TAppDialogueDetail } from "../../../../server/apps/app-data.schema";

export function DialogueDrawer({ appId, dialogueId, onClose }: { appId: string; dialogueId: string | null; onClose: () => void }) {
  const { t } = useTranslation("appdata");
  const [detail, setDetail] = useState<TAppDialogueDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!dialogueId) return;
    let live = true;
    setDetail(null);
    setError(null);
    callTrpc(() => trpc.appData.dialogue.query({ appId, dialogueId }))
      .then((d) => live && setDetail(d))
      .catch((err) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, [appId, dialogueId]);

  return (
    <Drawer
      open={Boolean(dialogueId)}
      onClose={onClose}
      title={detail?.title ?? t("dialogues.detail")}
      size="large"
      destroyOnHidden
      data-testid="appdata-dialogue-drawer"
    >
      {error ? (
        <Empty description={error} />
      ) : !detail ? (
        <Spin />
      ) : (
        <div className="appdata-messages" data-testid="appdata-messages">
          <div className="appdata-messages__meta">
            <Tag>{detail.source ? t(`sources.${detail.source}`, { defaultValue: detail.source }) : "—"}</Tag>
            <span>{detail.user.kind === "account" ? detail.user.label : t("user.visitor", { id: detail.user.label })}</span>
          </div>
          {detail.messages.map((m) => (
            <div
              key={m.id}
              className={`appdata-message appdata-message--${m.role}`}
              data-testid="appdata-message"
              data-role={m.role}
              data-feedback={m.feedback}
            >
              <div className="appdata-message__head">
                <Typography.Text strong>{t(`roles.${m.role}`)}</Typography.Text>
                <Typography.Text type="secondary">
                  <LocalDate iso={m.created_at} withTime />
                </Typography.Text>
                {m.feedback === "liked" && <LikeFilled className="appdata-like" aria-label={t("feedback.liked")} />}
                {m.feedback === "disliked" && <DislikeFilled className="appdata-dislike" aria-label={t("feedback.disliked")} />}
              </div>
              <div className="appdata-message__text">
                {m.status === "censored" ? <Typography.Text type="secondary">{t("dialogues.censored")}</Typography.Text> : m.content}
              </div>
            </div>
          ))}
        </div>
      )}
    </Drawer>
  );
}
