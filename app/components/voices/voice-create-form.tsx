// The form of both recording pages: a script to read aloud, the recorder (or a file), the voice's
// name and what it costs; submitting sends the recording to be checked and returns to /speechtr,
// where the voice shows as "checking". A personal voice without a package slot shows the package
// box first.
import { SendOutlined } from "@ant-design/icons";
import { Alert, App, Button, Card, Form, Input, Skeleton } from "antd";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { useAppNavigate } from "../app-link";
import { checkName } from "../rename-modal";
import { VOICE_CUSTOM_PRICE_MICRO, VOICE_NAME_MAX, VOICE_SAMPLE_LIMITS, type TVoiceSampleKind } from "../../../server/digital/digital.schema";
import { ZVoiceName } from "../../../server/digital/voices.schema";
import { formatZ } from "../../../server/money/money-format";
import { VoicePackageBox } from "./voice-package-box";
import { VoiceRecorder } from "./voice-recorder";
import { uploadVoice, useVoicePackages, type TVoiceSample } from "./voices-client";

const SCRIPT_PARAGRAPHS: Record<TVoiceSampleKind, string[]> = {
  personal: ["script.personal_1", "script.personal_2", "script.personal_3"],
  custom: ["script.custom_1"],
};

function ReadingScript({ kind }: { kind: TVoiceSampleKind }) {
  const { t } = useTranslation("voices");
  return (
    <Card size="small" className="voice-script" title={t("script.title")} data-testid="voice-script">
      {SCRIPT_PARAGRAPHS[kind].map((key) => (
        <p key={key}>{t(key)}</p>
      ))}
    </Card>
  );
}

function VoiceForm({ kind }: { kind: TVoiceSampleKind }) {
  const { t } = useTranslation("voices");
  const { t: te } = useTranslation("errors");
  const { message } = App.useApp();
  const navigate = useAppNavigate();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [sample, setSample] = useState<TVoiceSample | null>(null);
  const onSample = useCallback((s: TVoiceSample | null) => setSample(s), []);
  const submit = useMutation(
    async () => {
      await uploadVoice(sample!, { name, kind }, te("upload_failed"));
      void message.success(t("submitted"));
      navigate("/speechtr");
    },
    { report: "inline" },
  );

  const send = () => {
    const problem = checkName(ZVoiceName, name, te);
    setNameError(problem);
    if (!problem && sample) void submit.run();
  };
  const price =
    kind === "custom" ? t("form.price_custom", { price: t("common:money.z", { amount: formatZ(VOICE_CUSTOM_PRICE_MICRO) }) }) : t("form.price_personal");
  return (
    <Form layout="vertical" className="voice-form" onFinish={send} data-testid="voice-form" data-kind={kind}>
      <ReadingScript kind={kind} />
      <Form.Item label={t("form.sample")} required>
        <VoiceRecorder bounds={VOICE_SAMPLE_LIMITS[kind]} onSample={onSample} />
      </Form.Item>
      <Form.Item label={t("form.name")} required validateStatus={nameError ? "error" : undefined} help={nameError ?? undefined}>
        <Input
          value={name}
          placeholder={t("form.name_placeholder")}
          maxLength={VOICE_NAME_MAX + 10}
          showCount={{ formatter: ({ count }) => `${count}/${VOICE_NAME_MAX}` }}
          onChange={(e) => {
            setName(e.target.value);
            if (nameError) setNameError(checkName(ZVoiceName, e.target.value, te));
          }}
          data-testid="voice-name"
        />
      </Form.Item>
      {submit.error && <Alert type="error" showIcon message={submit.error} className="voice-form__error" data-testid="voice-submit-error" />}
      <div className="voice-form__foot">
        <span className="voice-form__price" data-testid="voice-price">
          {price}
        </span>
        <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={submit.busy} disabled={!sample} data-testid="voice-submit">
          {t("actions.submit")}
        </Button>
      </div>
    </Form>
  );
}

export function VoiceCreateForm({ kind }: { kind: TVoiceSampleKind }) {
  const { t } = useTranslation("voices");
  const { packages, loadError, reload } = useVoicePackages();
  if (kind === "custom") return <VoiceForm kind={kind} />;
  if (loadError) return <Alert type="error" showIcon message={errorText(loadError, t("load_failed"))} />;
  if (!packages) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (packages.slotsLeft < 1)
    return (
      <div className="voice-gate" data-testid="voice-package-gate">
        <Alert type="warning" showIcon message={t("package.none")} description={t("package.gate_hint")} />
        <VoicePackageBox packages={packages} onBought={() => void reload()} />
      </div>
    );
  return <VoiceForm kind={kind} />;
}
