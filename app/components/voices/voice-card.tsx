// One voice of my own: its state, what refused its recording ("training failed, re-record" with
// each problem in words and the limits), why its training failed, its recording to listen to, and
// what can be done with it (rename, remove, record again).
import { DeleteOutlined, EditOutlined, RedoOutlined, ReloadOutlined } from "@ant-design/icons";
import { Button, Card, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { uiLocale } from "../../i18n/config";
import { AppLink } from "../app-link";
import { VOICE_SAMPLE_LIMITS, type TVoiceProblem } from "../../../server/digital/digital.schema";
import type { TVoiceState } from "../../../server/digital/voices.schema";
import type { TDigitalVoice } from "./voices-client";

const STATE_COLORS: Record<TVoiceState, string> = {
  checking: "processing",
  check_failed: "error",
  training: "processing",
  ready: "success",
  train_failed: "error",
};
/** A check that has not answered after this long is offered again (its queue job may have been lost). */
const CHECK_STALE_MS = 2 * 60_000;

export const createPathOf = (kind: TDigitalVoice["sampleKind"]) => (kind === "personal" ? "/Createspeechtr" : "/Createvoice");
const secondsOf = (ms: number | null) => (ms === null ? null : Math.round(ms / 1000));

function ProblemList({ voice }: { voice: TDigitalVoice }) {
  const { t } = useTranslation("voices");
  const limits = VOICE_SAMPLE_LIMITS[voice.sampleKind];
  const vars = { min: limits.minMs / 1000, max: limits.maxMs / 1000, seconds: secondsOf(voice.durationMs) ?? 0 };
  return (
    <ul className="voice-card__problems" data-testid="voice-problems">
      {voice.problems.map((p: TVoiceProblem) => (
        <li key={p} data-problem={p}>
          {t(`problems.${p}`, vars)}
        </li>
      ))}
    </ul>
  );
}

type TActions = { onRename: (v: TDigitalVoice) => void; onRemove: (v: TDigitalVoice) => void; onRetry: (v: TDigitalVoice) => void; busyId: string | null };

export function VoiceCard({ voice, actions }: { voice: TDigitalVoice; actions: TActions }) {
  const { t, i18n } = useTranslation("voices");
  const { t: te } = useTranslation("errors");
  const failed = voice.state === "check_failed" || voice.state === "train_failed";
  const stale = voice.state === "checking" && Date.now() - new Date(voice.createdAt).getTime() > CHECK_STALE_MS;
  const seconds = secondsOf(voice.durationMs);
  return (
    <Card className="voice-card" data-testid="voice-card" data-voice-id={voice.id} data-state={voice.state} data-kind={voice.sampleKind}>
      <div className="voice-card__head">
        <strong className="voice-card__name" title={voice.name}>
          {voice.name}
        </strong>
        <Tag color={STATE_COLORS[voice.state]} data-testid="voice-state" data-state={voice.state}>
          {t(`state.${voice.state}`)}
        </Tag>
      </div>
      <div className="voice-card__meta">
        <Tag>{t(`kind.${voice.sampleKind}`)}</Tag>
        {seconds !== null && <span>{t("duration", { seconds })}</span>}
        <span>{new Date(voice.createdAt).toLocaleDateString(uiLocale(i18n.language))}</span>
      </div>
      {!failed && <p className="voice-card__note">{t(`state_note.${voice.state}`)}</p>}
      {voice.state === "check_failed" && <ProblemList voice={voice} />}
      {voice.state === "train_failed" && (
        <div className="voice-card__error" data-testid="voice-error">
          <div>{te(voice.errorCode ?? "training_failed")}</div>
          <div>{t("rerecord_hint")}</div>
        </div>
      )}
      {voice.sampleUrl && (
        <audio className="voice-card__audio" src={voice.sampleUrl} controls preload="none" aria-label={t("sample_label", { name: voice.name })} />
      )}
      <div className="voice-card__actions">
        {failed && (
          <AppLink to={createPathOf(voice.sampleKind)} data-testid="voice-rerecord-link">
            <Button size="small" type="primary" icon={<RedoOutlined />}>
              {t("actions.rerecord")}
            </Button>
          </AppLink>
        )}
        {stale && (
          <Button size="small" icon={<ReloadOutlined />} loading={actions.busyId === voice.id} onClick={() => actions.onRetry(voice)} data-testid="voice-retry">
            {t("actions.retry")}
          </Button>
        )}
        <Button size="small" icon={<EditOutlined />} onClick={() => actions.onRename(voice)} data-testid="voice-rename">
          {t("actions.rename")}
        </Button>
        <Button size="small" danger icon={<DeleteOutlined />} onClick={() => actions.onRemove(voice)} data-testid="voice-remove">
          {t("actions.remove")}
        </Button>
      </div>
    </Card>
  );
}
