// From the drawing and video forms' values to the job requests: only the fields the chosen model
// offers are sent, each checked by the same schema the server parses with, and a refusal's field
// names are turned back into the form's.
import {
  ASPECT_SIZES,
  VIDEO_DURATIONS,
  ZImageJobInput,
  ZVideoJobInput,
  type TAspectRatio,
  type TCameraMotion,
  type TImageJobInput,
  type TMediaCapabilities,
  type TVideoJobInput,
} from "../../../server/media/generation.schema";
import { priceImageJob, priceVideoJob } from "../../../server/media/media-pricing";
import type { TMediaModel } from "./generation-client";

export type TPictureValue = { id: string; url: string; name?: string } | null | undefined;

export const CUSTOM_SIZE = "custom";
/** Exact sizes the drawing form takes for free-size models: whole multiples of 8. */
export const FREE_SIZE = { min: 256, max: 2048, step: 8 } as const;

export type TImageFormValues = {
  model: string;
  prompt: string;
  negativePrompt?: string;
  ratio: TAspectRatio | typeof CUSTOM_SIZE;
  width?: number | null;
  height?: number | null;
  sampler?: string;
  steps?: number | null;
  guidance?: number | null;
  quality?: "standard" | "hd";
  style?: string;
  count: number;
  reference?: TPictureValue;
};

export type TVideoFormValues = {
  model: string;
  prompt?: string;
  negativePrompt?: string;
  firstFrame?: TPictureValue;
  tailFrame?: TPictureValue;
  cameraMotion?: TCameraMotion;
  duration: number;
  mode: "std" | "pro";
};

export type TFieldProblem = { name: string; message: string };
export type TBuilt<T> = { ok: true; input: T } | { ok: false; problems: TFieldProblem[] };

const text = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);
const num = (v: number | null | undefined) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** The request's field names as the forms call them. */
const FORM_FIELD: Record<string, string> = {
  aspectRatio: "ratio",
  size: "width",
  referenceId: "reference",
  firstFrameId: "firstFrame",
  tailFrameId: "tailFrame",
};
export const toFormField = (path: string) => FORM_FIELD[path.split(".")[0]] ?? path.split(".")[0];

/** The form's first values for a model: its first aspect ratio, one picture, the usual sampler settings. */
export function initialImageValues(model: TMediaModel | undefined): TImageFormValues {
  const caps = model?.capabilities;
  return {
    model: model?.key ?? "",
    prompt: "",
    ratio: caps?.aspectRatios[0] ?? "1:1",
    width: ASPECT_SIZES["1:1"].width,
    height: ASPECT_SIZES["1:1"].height,
    sampler: caps?.samplers[0],
    steps: 30,
    guidance: 7,
    quality: "standard",
    style: caps?.styles[0],
    count: 1,
    reference: null,
  };
}

/** Values kept when the model changes, brought within what the new model offers. */
export function fitImageValues(values: TImageFormValues, caps: TMediaCapabilities): Partial<TImageFormValues> {
  const ratioOk = values.ratio === CUSTOM_SIZE ? caps.freeSize : caps.aspectRatios.includes(values.ratio);
  return {
    ratio: ratioOk ? values.ratio : (caps.aspectRatios[0] ?? "1:1"),
    count: Math.min(Math.max(1, values.count || 1), Math.max(1, caps.maxCount)),
    sampler: values.sampler && caps.samplers.includes(values.sampler) ? values.sampler : caps.samplers[0],
    style: values.style && caps.styles.includes(values.style) ? values.style : caps.styles[0],
  };
}

export function buildImageInput(values: TImageFormValues, caps: TMediaCapabilities): TBuilt<TImageJobInput> {
  const custom = values.ratio === CUSTOM_SIZE && caps.freeSize;
  const width = num(values.width);
  const height = num(values.height);
  const problems: TFieldProblem[] = [];
  if (custom && !(width && height && [width, height].every((v) => v >= FREE_SIZE.min && v <= FREE_SIZE.max && v % FREE_SIZE.step === 0)))
    problems.push({ name: "width", message: "validation.media_size" });
  const parsed = ZImageJobInput.safeParse({
    model: values.model,
    prompt: values.prompt ?? "",
    negativePrompt: caps.negativePrompt ? text(values.negativePrompt) : undefined,
    aspectRatio: values.ratio === CUSTOM_SIZE ? "1:1" : values.ratio,
    size: custom ? `${width}x${height}` : undefined,
    sampler: caps.samplers.length ? values.sampler : undefined,
    steps: caps.steps ? num(values.steps) : undefined,
    guidance: caps.guidance ? num(values.guidance) : undefined,
    quality: caps.quality ? (values.quality ?? "standard") : "standard",
    style: caps.styles.length ? values.style : undefined,
    count: Math.min(values.count || 1, Math.max(1, caps.maxCount)),
    referenceId: caps.reference ? values.reference?.id : undefined,
  });
  if (!parsed.success) problems.push(...parsed.error.issues.map((i) => ({ name: toFormField(i.path.join(".")), message: i.message })));
  return problems.length || !parsed.success ? { ok: false, problems } : { ok: true, input: parsed.data };
}

/** Whether the camera motion is offered: the model takes one, and, with a tail frame chosen, takes both together. */
export function cameraMotionAllowed(caps: TMediaCapabilities, withTailFrame: boolean) {
  return caps.cameraMotion && (!withTailFrame || caps.cameraMotionWithTailFrame);
}

export function buildVideoInput(values: TVideoFormValues, caps: TMediaCapabilities): TBuilt<TVideoJobInput> {
  const problems: TFieldProblem[] = [];
  if (!values.firstFrame?.id) problems.push({ name: "firstFrame", message: "validation.required" });
  const durations = caps.durations.length ? caps.durations : VIDEO_DURATIONS;
  const parsed = ZVideoJobInput.safeParse({
    model: values.model,
    prompt: values.prompt ?? "",
    negativePrompt: caps.negativePrompt ? text(values.negativePrompt) : undefined,
    firstFrameId: values.firstFrame?.id ?? "",
    // A model that takes no tail frame is never sent one, even one chosen for another model before.
    tailFrameId: caps.tailFrame ? values.tailFrame?.id : undefined,
    cameraMotion: cameraMotionAllowed(caps, Boolean(caps.tailFrame && values.tailFrame?.id)) ? (values.cameraMotion ?? "none") : "none",
    duration: durations.includes(values.duration) ? values.duration : durations[0],
    mode: values.mode,
  });
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const name = toFormField(issue.path.join("."));
      if (!problems.some((p) => p.name === name)) problems.push({ name, message: issue.message });
    }
  return problems.length || !parsed.success ? { ok: false, problems } : { ok: true, input: parsed.data };
}

/** What the job will cost, as the server will hold it: null until a model is chosen. */
export function priceOfImage(model: TMediaModel | undefined, count: number) {
  return model ? priceImageJob(model.unitPriceMicro, Math.min(Math.max(1, count || 1), Math.max(1, model.capabilities.maxCount))) : null;
}

export function priceOfVideo(model: TMediaModel | undefined, duration: number, mode: "std" | "pro") {
  return model ? priceVideoJob(model.unitPriceMicro, duration, mode) : null;
}
