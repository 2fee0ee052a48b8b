// The drawing screen's form: the model (version), the prompt, and only the settings the chosen model
// offers (negative prompt, reference picture, size or aspect ratio, quality, style, sampler, steps,
// guidance), the number of pictures, and the price before the job starts.
import { Form, Input, InputNumber, Radio, Select } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { formatZ } from "../../../server/money/money-format";
import { IMAGE_QUALITIES, NEGATIVE_PROMPT_MAX, PROMPT_MAX, type TMediaCapabilities } from "../../../server/media/generation.schema";
import { generationApi, type TMediaJob, type TMediaModel } from "./generation-client";
import {
  buildImageInput,
  CUSTOM_SIZE,
  fitImageValues,
  FREE_SIZE,
  initialImageValues,
  priceOfImage,
  type TImageFormValues,
  type TPictureValue,
} from "./job-inputs";
import { LibraryPictureField } from "./library-picture-field";
import { ModelSelect } from "./model-field";
import { PriceBar } from "./price-bar";
import { useJobSubmit } from "./use-job-submit";

export function ImageJobForm({ models, reference, onSubmitted }: { models: TMediaModel[]; reference?: TPictureValue; onSubmitted: (job: TMediaJob) => void }) {
  const { t } = useTranslation("generation");
  const [form] = Form.useForm<TImageFormValues>();
  const initial = useMemo(() => ({ ...initialImageValues(models[0]), reference: reference ?? null }), [models, reference]);
  const modelKey = Form.useWatch("model", form) ?? initial.model;
  const count = Form.useWatch("count", form) ?? 1;
  const ratio = Form.useWatch("ratio", form) ?? initial.ratio;
  const model = models.find((m) => m.key === modelKey) ?? models[0];
  const caps = model.capabilities;
  const { start, busy } = useJobSubmit(form, (v) => buildImageInput(v, caps), generationApi.submitImage, onSubmitted);
  const price = priceOfImage(model, count);

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={() => void start()}
      onValuesChange={(changed: Partial<TImageFormValues>) => {
        const next = models.find((m) => m.key === changed.model);
        if (next) form.setFieldsValue(fitImageValues(form.getFieldsValue(true) as TImageFormValues, next.capabilities));
      }}
      className="generation-form"
      data-testid="drawing-form"
    >
      <Form.Item name="model" label={t("fields.model")} rules={[{ required: true, message: t("errors:validation.required") }]}>
        <ModelSelect models={models} />
      </Form.Item>
      <Form.Item name="prompt" label={t("fields.prompt")} rules={[{ required: true, whitespace: true, message: t("errors:validation.required") }]}>
        <Input.TextArea rows={4} maxLength={PROMPT_MAX} showCount placeholder={t("placeholders.image_prompt")} data-testid="generation-prompt" />
      </Form.Item>
      {caps.negativePrompt && (
        <Form.Item name="negativePrompt" label={t("fields.negative_prompt")} extra={t("hints.negative_prompt")}>
          <Input.TextArea rows={2} maxLength={NEGATIVE_PROMPT_MAX} showCount data-testid="generation-negative-prompt" />
        </Form.Item>
      )}
      {caps.reference && (
        <Form.Item name="reference" label={t("fields.reference")} extra={t("hints.reference")}>
          <LibraryPictureField testId="generation-reference" />
        </Form.Item>
      )}
      <SizeFields caps={caps} ratio={ratio} />
      <RenderingFields caps={caps} />
      <Form.Item name="count" label={t("fields.count")}>
        <Radio.Group
          optionType="button"
          className="generation-choices"
          options={Array.from({ length: Math.max(1, caps.maxCount) }, (_, i) => ({ value: i + 1, label: String(i + 1) }))}
          data-testid="generation-count"
        />
      </Form.Item>
      <PriceBar
        priceMicro={price}
        busy={busy}
        detail={t("price.image_detail", { count, unit: t("common:money.z", { amount: formatZ(model.unitPriceMicro) }) })}
      />
    </Form>
  );
}

/** An aspect ratio, or for a free-size model an exact width and height. */
function SizeFields({ caps, ratio }: { caps: TMediaCapabilities; ratio: string }) {
  const { t } = useTranslation("generation");
  return (
    <>
      <Form.Item name="ratio" label={t(caps.freeSize ? "fields.size" : "fields.aspect_ratio")}>
        <Radio.Group optionType="button" className="generation-choices" data-testid="generation-ratio">
          {caps.aspectRatios.map((r) => (
            <Radio.Button key={r} value={r}>
              {r}
            </Radio.Button>
          ))}
          {caps.freeSize && <Radio.Button value={CUSTOM_SIZE}>{t("fields.custom_size")}</Radio.Button>}
        </Radio.Group>
      </Form.Item>
      {caps.freeSize && ratio === CUSTOM_SIZE && (
        <div className="generation-row">
          <Form.Item name="width" label={t("fields.width")} extra={t("hints.free_size", FREE_SIZE)}>
            <InputNumber min={FREE_SIZE.min} max={FREE_SIZE.max} step={FREE_SIZE.step} precision={0} suffix="px" data-testid="generation-width" />
          </Form.Item>
          <Form.Item name="height" label={t("fields.height")}>
            <InputNumber min={FREE_SIZE.min} max={FREE_SIZE.max} step={FREE_SIZE.step} precision={0} suffix="px" data-testid="generation-height" />
          </Form.Item>
        </div>
      )}
    </>
  );
}

/** How the picture is rendered: quality, style, sampler, steps and guidance, each when the model offers it. */
function RenderingFields({ caps }: { caps: TMediaCapabilities }) {
  const { t } = useTranslation("generation");
  return (
    <>
      {caps.quality && (
        <Form.Item name="quality" label={t("fields.quality")}>
          <Radio.Group optionType="button" className="generation-choices" options={IMAGE_QUALITIES.map((q) => ({ value: q, label: t(`quality.${q}`) }))} />
        </Form.Item>
      )}
      {caps.styles.length > 0 && (
        <Form.Item name="style" label={t("fields.style")}>
          <Select options={caps.styles.map((s) => ({ value: s, label: t(`style.${s.replace(/[<>]/g, "").replace(/ /g, "_")}`, { defaultValue: s }) }))} />
        </Form.Item>
      )}
      {caps.samplers.length > 0 && (
        <Form.Item name="sampler" label={t("fields.sampler")}>
          <Select options={caps.samplers.map((s) => ({ value: s, label: s }))} data-testid="generation-sampler" />
        </Form.Item>
      )}
      {(caps.steps || caps.guidance) && (
        <div className="generation-row">
          {caps.steps && (
            <Form.Item name="steps" label={t("fields.steps")} extra={t("hints.steps")}>
              <InputNumber min={1} max={150} precision={0} data-testid="generation-steps" />
            </Form.Item>
          )}
          {caps.guidance && (
            <Form.Item name="guidance" label={t("fields.guidance")} extra={t("hints.guidance")}>
              <InputNumber min={0} max={30} step={0.5} data-testid="generation-guidance" />
            </Form.Item>
          )}
        </div>
      )}
    </>
  );
}
