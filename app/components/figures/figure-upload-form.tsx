// The filming upload: the video (and an optional greeting video) checked by size as soon as it is
// chosen, a name, and the upload's progress while the bytes go. The server decides the type from
// the content and answers the new figure, whose check the page then follows.
import { UploadOutlined } from "@ant-design/icons";
import { Alert, Button, Input, Progress } from "antd";
import { useId, useRef, useState, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/api-client";
import { displayFileName } from "../../lib/file-name";
import { FIGURE_NAME_MAX, FILMING_LIMITS, type TFilmingPurpose } from "../../../server/digital/digital.schema";
import { toMegabytes, VIDEO_ACCEPT } from "../../../server/uploads/upload-limits";
import { checkFilmingFile, uploadFigureForm, type TFigureView } from "./figures-client";

type TChosen = { file: File | null; error: string | null };

function FileField({ purpose, chosen, onChoose, disabled }: { purpose: TFilmingPurpose; chosen: TChosen; onChoose: (c: TChosen) => void; disabled: boolean }) {
  const { t } = useTranslation("figures");
  const { t: te } = useTranslation("errors");
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0] ?? null;
    const problem = file ? checkFilmingFile(file, purpose) : null;
    onChoose({ file: problem ? null : file, error: problem ? `${displayFileName(file!.name)}: ${te(problem)}` : null });
    e.target.value = "";
  };
  return (
    <div className="figures-field">
      <label htmlFor={id} className="figures-field__label">
        {t(`upload.${purpose}_label`)}
      </label>
      <div className="figures-field__row">
        <Button icon={<UploadOutlined />} onClick={() => input.current?.click()} disabled={disabled} data-testid={`figure-${purpose}-choose`}>
          {t(chosen.file ? "upload.change" : "upload.choose")}
        </Button>
        <input ref={input} id={id} type="file" accept={VIDEO_ACCEPT} onChange={choose} disabled={disabled} data-testid={`figure-${purpose}-input`} hidden />
        <span className="figures-field__file" data-testid={`figure-${purpose}-chosen`}>
          {chosen.file ? displayFileName(chosen.file.name) : t(`upload.${purpose}_none`)}
        </span>
      </div>
      <div className="figures-field__hint">{t(`upload.${purpose}_hint`, { mb: toMegabytes(FILMING_LIMITS[purpose].maxBytes) })}</div>
      {chosen.error && (
        <div className="figures-field__error" role="alert">
          {chosen.error}
        </div>
      )}
    </div>
  );
}

export function FigureUploadForm({ onUploaded }: { onUploaded: (figure: TFigureView) => void }) {
  const { t } = useTranslation("figures");
  const { t: te } = useTranslation("errors");
  const [video, setVideo] = useState<TChosen>({ file: null, error: null });
  const [greeting, setGreeting] = useState<TChosen>({ file: null, error: null });
  const [name, setName] = useState("");
  const [percent, setPercent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sending = percent !== null;

  const send = async () => {
    if (!video.file) return setVideo({ file: null, error: t("upload.video_required") });
    const form = new FormData();
    if (name.trim()) form.append("name", name.trim());
    form.append("file", video.file);
    if (greeting.file) form.append("greeting", greeting.file);
    setError(null);
    setPercent(0);
    try {
      const figure = await uploadFigureForm(form, {
        fallbackError: te("upload_failed"),
        onProgress: (p) => setPercent(Math.min(99, Math.round((p.loaded / Math.max(1, p.total)) * 100))),
      });
      setPercent(100);
      onUploaded(figure);
    } catch (err) {
      setError(errorText(err, te("upload_failed")));
      setPercent(null);
    }
  };

  return (
    <form
      className="figures-upload"
      data-testid="figure-upload-form"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <FileField purpose="figure" chosen={video} onChoose={setVideo} disabled={sending} />
      <FileField purpose="greeting" chosen={greeting} onChoose={setGreeting} disabled={sending} />
      <div className="figures-field">
        <label htmlFor="figure-name" className="figures-field__label">
          {t("upload.name_label")}
        </label>
        <Input
          id="figure-name"
          value={name}
          maxLength={FIGURE_NAME_MAX}
          showCount
          placeholder={t("upload.name_placeholder")}
          onChange={(e) => setName(e.target.value)}
          disabled={sending}
          data-testid="figure-name-input"
        />
      </div>
      {error && <Alert type="error" showIcon message={error} className="figures-upload__error" data-testid="figure-upload-error" />}
      {sending && <Progress percent={percent} status="active" data-testid="figure-upload-progress" aria-label={t("upload.progress")} />}
      <Button type="primary" htmlType="submit" loading={sending} disabled={!video.file} data-testid="figure-upload-submit">
        {t("upload.submit")}
      </Button>
    </form>
  );
}
