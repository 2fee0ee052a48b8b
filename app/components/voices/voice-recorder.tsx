// The recording field of the voice forms: record from the microphone (a live level meter, a timer
// against the voice's bounds, stop, record again, listen), or choose a file instead. The timer
// checks the length here as the server will; a chosen file is checked by size and format.
import { AudioOutlined, BorderOutlined, DeleteOutlined, RedoOutlined, UploadOutlined } from "@ant-design/icons";
import { Alert, App, Button, Upload } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { displayFileName } from "../../lib/file-name";
import { VOICE_UPLOAD_ACCEPT, VOICE_UPLOAD_MAX_BYTES } from "../../../server/digital/digital.schema";
import { toMegabytes } from "../../../server/uploads/upload-limits";
import { useVoiceRecorder } from "./use-voice-recorder";
import { checkVoiceFile, type TVoiceSample } from "./voices-client";

const seconds = (ms: number) => Math.floor(ms / 1000);
const clock = (ms: number) => `${Math.floor(ms / 60_000)}:${String(seconds(ms) % 60).padStart(2, "0")}`;

function LevelMeter({ level, active }: { level: number; active: boolean }) {
  const { t } = useTranslation("voices");
  const percent = Math.round(level * 100);
  return (
    <div className="voice-level" role="meter" aria-label={t("recorder.level")} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
      <div
        className={`voice-level__bar${active ? "" : " voice-level__bar--idle"}`}
        style={{ width: `${percent}%` }}
        data-testid="voice-level"
        data-level={percent}
      />
    </div>
  );
}

function Timer({ elapsedMs, bounds }: { elapsedMs: number; bounds: { minMs: number; maxMs: number } }) {
  const { t } = useTranslation("voices");
  const within = elapsedMs >= bounds.minMs;
  return (
    <div className="voice-timer">
      <span className={`voice-timer__clock${within ? " voice-timer__clock--ok" : ""}`} data-testid="voice-timer" data-ms={elapsedMs}>
        {clock(elapsedMs)}
      </span>
      <span className="voice-timer__bounds">{t("recorder.bounds", { min: seconds(bounds.minMs), max: seconds(bounds.maxMs) })}</span>
      <div className="voice-timer__track" aria-hidden>
        <div className="voice-timer__fill" style={{ width: `${Math.min(100, (elapsedMs / bounds.maxMs) * 100)}%` }} />
        <div className="voice-timer__min" style={{ left: `${(bounds.minMs / bounds.maxMs) * 100}%` }} />
      </div>
    </div>
  );
}

export function VoiceRecorder({ bounds, onSample }: { bounds: { minMs: number; maxMs: number }; onSample: (sample: TVoiceSample | null) => void }) {
  const { t } = useTranslation("voices");
  const { t: te } = useTranslation("errors");
  const { message } = App.useApp();
  const recorder = useVoiceRecorder({ maxMs: bounds.maxMs });
  const [file, setFile] = useState<File | null>(null);
  const { recording } = recorder;
  const tooShort = Boolean(recording && recording.durationMs < bounds.minMs);

  useEffect(() => {
    if (file) onSample({ blob: file, filename: file.name, source: "uploaded" });
    else if (recording && !tooShort) onSample({ blob: recording.blob, filename: recording.filename, source: "recorded" });
    else onSample(null);
  }, [file, recording, tooShort, onSample]);

  const choose = (chosen: File) => {
    const problem = checkVoiceFile(chosen);
    if (problem) {
      void message.error(`${displayFileName(chosen.name)}: ${te(problem)}`);
      return Upload.LIST_IGNORE;
    }
    recorder.reset();
    setFile(chosen);
    return false;
  };

  const isRecording = recorder.state === "recording";
  return (
    <div className="voice-recorder" data-testid="voice-recorder" data-state={file ? "file" : recorder.state}>
      {!file && (
        <>
          <LevelMeter level={recorder.level} active={isRecording} />
          <Timer elapsedMs={recorder.elapsedMs} bounds={bounds} />
          {isRecording && (
            <div className="voice-recorder__note" data-testid="voice-recorder-note">
              {recorder.elapsedMs < bounds.minMs ? t("recorder.need_more", { min: seconds(bounds.minMs) }) : t("recorder.enough")}
            </div>
          )}
          <div className="voice-recorder__actions">
            {isRecording ? (
              <Button danger icon={<BorderOutlined />} onClick={recorder.stop} data-testid="voice-stop">
                {t("actions.stop")}
              </Button>
            ) : recording ? (
              <Button icon={<RedoOutlined />} onClick={() => void recorder.start()} data-testid="voice-rerecord">
                {t("actions.restart")}
              </Button>
            ) : (
              <Button
                type="primary"
                icon={<AudioOutlined />}
                loading={recorder.state === "starting"}
                onClick={() => void recorder.start()}
                data-testid="voice-start"
              >
                {t("actions.start")}
              </Button>
            )}
          </div>
          {recording && (
            <div className="voice-recorder__result">
              <span>{t("recorder.recorded", { seconds: seconds(recording.durationMs) })}</span>
              <audio src={recording.url} controls preload="metadata" aria-label={t("recorder.listen")} data-testid="voice-listen" />
            </div>
          )}
          {tooShort && <Alert type="warning" showIcon message={t("recorder.too_short", { min: seconds(bounds.minMs) })} data-testid="voice-too-short" />}
          {recorder.state === "denied" && <Alert type="error" showIcon message={t("recorder.no_mic")} />}
          {recorder.state === "unsupported" && <Alert type="error" showIcon message={t("recorder.unsupported")} />}
        </>
      )}
      <div className="voice-recorder__upload">
        {file ? (
          <div className="voice-recorder__file" data-testid="voice-file">
            <span className="voice-recorder__file-name">{t("upload.chosen", { name: displayFileName(file.name) })}</span>
            <Button size="small" icon={<DeleteOutlined />} onClick={() => setFile(null)} data-testid="voice-file-clear">
              {t("actions.discard")}
            </Button>
          </div>
        ) : (
          <Upload accept={VOICE_UPLOAD_ACCEPT} showUploadList={false} beforeUpload={choose} disabled={isRecording} maxCount={1}>
            <Button icon={<UploadOutlined />} disabled={isRecording} data-testid="voice-upload">
              {t("actions.upload")}
            </Button>
          </Upload>
        )}
        <span className="voice-recorder__hint">{t("upload.hint", { mb: toMegabytes(VOICE_UPLOAD_MAX_BYTES) })}</span>
      </div>
    </div>
  );
}
