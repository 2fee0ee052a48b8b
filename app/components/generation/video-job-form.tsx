// The video screen's form: the model, the first frame (required) and, when the model takes one, the
// tail frame; the prompt, negative prompt, camera motion, 5 or 10 seconds, standard or pro mode,
// and the price before the job starts.
import { Alert, Form, Input, Radio, Select } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { formatZ } from "../../../server/money/money-format";
import {
  CAMERA_MOTIONS,
  NEGATIVE_PROMPT_MAX,
  PROMPT_MAX,
  VIDEO_DURATIONS,
  VIDEO_MODES,
  type TMediaCapabilities,
} from "../../../server/media/generation.schema";
import { PRO_VIDEO_FACTOR } from "../../../server/media/media-pricing";
import { generationApi, type TMediaJob, type TMediaModel } from "./generation-client";
import { buildVideoInput, cameraMotionAllowed, priceOfVideo, type TPictureValue, type TVideoFormValues } from "./job-inputs";
import { LibraryPictureField } from "./library-picture-field";
import { ModelSelect } from "./model-field";
import { PriceBar } from "./price-bar";
import { useJobSubmit } from "./use-job-submit";

export function VideoJobForm({
  models,
  firstFrame,
  onSubmitted,
}: {
  models: TMediaModel[];
  firstFrame?: TPictureValue;
  onSubmitted: (job: TMediaJob) => void;
}) {
  const { t } = useTranslation("generation");
  const [form] = Form.useForm<TVideoFormValues>();
  const initial = useMemo<TVideoFormValues>(
    () => ({ model: models[0]?.key ?? "", prompt: "", firstFrame: firstFrame ?? null, tailFrame: null, cameraMotion: "none", duration: 5, mode: "std" }),
    [models, firstFrame],
  );
  const modelKey = Form.useWatch("model", form) ?? initial.model;
  const duration = Form.useWatch("duration", form) ?? initial.duration;
  const mode = Form.useWatch("mode", form) ?? initial.mode;
  const tailFrame = Form.useWatch("tailFrame", form) as TPictureValue;
  const model = models.find((m) => m.key === modelKey) ?? models[0];
  const caps = model.capabilities;
  const durations = caps.durations.length ? caps.durations : VIDEO_DURATIONS;
  // Some models take a camera motion or a tail frame, not both: the motion then waits for the frame to go.
  const motionAllowed = cameraMotionAllowed(caps, Boolean(caps.tailFrame && tailFrame?.id));
  const { start, busy } = useJobSubmit(form, (v) => buildVideoInput(v, caps), generationApi.submitVideo, onSubmitted);
  const unit = t("common:money.z", { amount: formatZ(model.unitPriceMicro) });

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={() => void start()}
      onValuesChange={(changed: Partial<TVideoFormValues>) => {
        const next = models.find((m) => m.key === changed.model);
        // A duration the new model does not offer falls back to its first.
        if (next?.capabilities.durations.length && !next.capabilities.durations.includes(form.getFieldValue("duration") as number))
          form.setFieldsValue({ duration: next.capabilities.durations[0] });
      }}
      className="generation-form"
      data-testid="video-form"
    >
      <Form.Item name="model" label={t("fields.model")} rules={[{ required: true, message: t("errors:validation.required") }]}>
        <ModelSelect models={models} />
      </Form.Item>
      <FrameFields caps={caps} modelName={model.name} />
      <Form.Item name="prompt" label={t("fields.prompt")} extra={t("hints.video_prompt")}>
        <Input.TextArea rows={3} maxLength={PROMPT_MAX} showCount placeholder={t("placeholders.video_prompt")} data-testid="generation-prompt" />
      </Form.Item>
      {caps.negativePrompt && (
        <Form.Item name="negativePrompt" label={t("fields.negative_prompt")} extra={t("hints.negative_prompt_video")}>
          <Input.TextArea rows={2} maxLength={NEGATIVE_PROMPT_MAX} showCount data-testid="generation-negative-prompt" />
        </Form.Item>
      )}
      {caps.cameraMotion && (
        <Form.Item name="cameraMotion" label={t("fields.camera_motion")} extra={motionAllowed ? undefined : t("hints.camera_with_tail_frame")}>
          <Select disabled={!motionAllowed} options={CAMERA_MOTIONS.map((c) => ({ value: c, label: t(`camera.${c}`) }))} data-testid="generation-camera" />
        </Form.Item>
      )}
      <div className="generation-row">
        <Form.Item name="duration" label={t("fields.duration")}>
          <Radio.Group
            optionType="button"
            className="generation-choices"
            options={durations.map((d) => ({ value: d, label: t("seconds", { count: d }) }))}
            data-testid="generation-duration"
          />
        </Form.Item>
        <Form.Item name="mode" label={t("fields.mode")} extra={t("hints.mode", { factor: PRO_VIDEO_FACTOR })}>
          <Radio.Group
            optionType="button"
            className="generation-choices"
            options={VIDEO_MODES.map((m) => ({ value: m, label: t(`mode.${m}`) }))}
            data-testid="generation-mode"
          />
        </Form.Item>
      </div>
      <PriceBar
        priceMicro={priceOfVideo(model, duration, mode)}
        busy={busy}
        detail={t(mode === "pro" ? "price.video_detail_pro" : "price.video_detail", { seconds: duration, unit, factor: PRO_VIDEO_FACTOR })}
      />
    </Form>
  );
}

/** The first frame (required) and the tail frame, or why the model takes none. */
function FrameFields({ caps, modelName }: { caps: TMediaCapabilities; modelName: string }) {
  const { t } = useTranslation("generation");
  return (
    <>
      <Form.Item
        name="firstFrame"
        label={t("fields.first_frame")}
        extra={t("hints.first_frame")}
        required
        rules={[
          {
            validator: async (_r, v: TPictureValue) => {
              if (!v?.id) throw new Error(t("errors:validation.required"));
            },
          },
        ]}
      >
        <LibraryPictureField testId="generation-first-frame" />
      </Form.Item>
      <Form.Item
        name="tailFrame"
        label={t("fields.tail_frame")}
        extra={caps.tailFrame ? t("hints.tail_frame") : undefined}
        data-testid="generation-tail-frame-item"
        data-supported={String(caps.tailFrame)}
      >
        {caps.tailFrame ? (
          <LibraryPictureField testId="generation-tail-frame" />
        ) : (
          <Alert type="info" showIcon message={t("hints.tail_frame_unsupported", { model: modelName })} data-testid="generation-tail-frame-unsupported" />
        )}
      </Form.Item>
    </>
  );
}
