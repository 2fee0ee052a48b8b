// The consent a training provider needs before it makes an avatar of a person: a short video of
// them reading the statement shown here. Chosen from the device (a phone opens its camera), checked
// for size before it is sent; the server decides the type from the content.
import { CheckCircleFilled, VideoCameraAddOutlined } from "@ant-design/icons";
import { App, Button } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CONSENT_LIMITS } from "../../../server/digital/digital.schema";
import { checkFileSize } from "../../../server/uploads/upload-limits";
import { consentPath, uploadFigureForm, type TFigureView } from "./figures-client";

export function ConsentUpload({ figure, onSaved }: { figure: TFigureView; onSaved: (figure: TFigureView) => void }) {
  const { t } = useTranslation("figures");
  const { t: te } = useTranslation("errors");
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const done = Boolean(figure.training.consentUrl);

  const send = async (file: File | undefined) => {
    if (!file) return;
    const tooBig = checkFileSize(file, CONSENT_LIMITS);
    if (tooBig) return void message.error(te(tooBig, { max: CONSENT_LIMITS.maxBytes / 1024 / 1024 }));
    const form = new FormData();
    form.append("file", file, file.name);
    setBusy(true);
    try {
      onSaved(await uploadFigureForm(form, { path: consentPath(figure.id), fallbackError: te("upload_failed"), onProgress: () => {} }));
      void message.success(t("train.consent_saved"));
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  return (
    <div className="figures-consent" data-testid="training-consent" data-done={done}>
      <p className="figures-consent__lead">
        {done ? <CheckCircleFilled className="figures-consent__ok" /> : null} {t(done ? "train.consent_done" : "train.consent_needed")}
      </p>
      {!done && <blockquote className="figures-consent__statement">{t("train.consent_statement", { name: figure.name })}</blockquote>}
      <input
        ref={input}
        type="file"
        accept="video/*"
        capture="user"
        hidden
        onChange={(e) => void send(e.target.files?.[0])}
        data-testid="training-consent-input"
      />
      <Button size="small" icon={<VideoCameraAddOutlined />} loading={busy} onClick={() => input.current?.click()} data-testid="training-consent-upload">
        {t(done ? "train.consent_replace" : "train.consent_upload")}
      </Button>
    </div>
  );
}
