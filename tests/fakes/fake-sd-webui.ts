// A loopback stand-in for Stable Diffusion WebUI's API (AUTOMATIC1111, started with --api and,
// when given credentials, --api-auth): POST /sdapi/v1/txt2img and /sdapi/v1/img2img answer
// {images: [base64 PNG], parameters, info} once the drawing is done, and GET /sdapi/v1/progress tells
// how far the current one is. Refusals are FastAPI's: 401 {detail} without the right HTTP Basic
// credentials, 422 {detail: [{loc, msg, type}]} for a field of the wrong type, 404 "Sampler not
// found", 500 {error, detail, body, errors} when the drawing fails (out of GPU memory).
// A drawing runs `pollsUntilDone` steps of `stepMs` (about one progress read of the adapter's each),
// or with `hold` until finish(taskId); a test may set a held task's `progress` (0..1) by hand.
import crypto from "node:crypto";
import type http from "node:http";
import { imageSize } from "image-size";
import { drawPicture, isInteger, makeGate, sendJson, startLoopback, type TFakeBehaviourBase, type TFakeRequest } from "./media-fake-kit";

export type TSdWebuiBehaviour = TFakeBehaviourBase & {
  submitError?: "auth" | "bad_request";
  /** How long one step of a drawing lasts (default 300 ms). */
  stepMs?: number;
  /** The WebUI's "return grid" setting: a batch answers its grid picture first. */
  returnGrid?: boolean;
};

export type TSdTask = {
  id: string;
  endpoint: "txt2img" | "img2img";
  body: any;
  state: "running" | "succeeded" | "failed";
  /** 0..1; set by hand for a held task, else follows the clock. */
  progress: number;
  finish: () => void;
};

export const SD_SAMPLERS = ["Euler a", "Euler", "LMS", "Heun", "DPM2", "DPM++ 2M", "DPM++ 2M Karras", "DPM++ SDE Karras", "DDIM", "UniPC"];
const FIELD_TYPES: Record<string, "str" | "int" | "number" | "bool" | "dict" | "list"> = {
  prompt: "str",
  negative_prompt: "str",
  sampler_name: "str",
  steps: "int",
  cfg_scale: "number",
  width: "int",
  height: "int",
  batch_size: "int",
  n_iter: "int",
  seed: "int",
  denoising_strength: "number",
  override_settings: "dict",
  override_settings_restore_afterwards: "bool",
  send_images: "bool",
  save_images: "bool",
  init_images: "list",
};
const TYPE_ERRORS = {
  str: ["str type expected", "type_error.str"],
  int: ["value is not a valid integer", "type_error.integer"],
  number: ["value is not a valid float", "type_error.float"],
  bool: ["value could not be parsed to a boolean", "type_error.bool"],
  dict: ["value is not a valid dict", "type_error.dict"],
  list: ["value is not a valid list", "type_error.list"],
} as const;

function hasType(value: unknown, type: keyof typeof TYPE_ERRORS) {
  if (type === "str") return typeof value === "string";
  if (type === "int") return isInteger(value);
  if (type === "number") return typeof value === "number";
  if (type === "bool") return typeof value === "boolean";
  if (type === "dict") return typeof value === "object" && value !== null && !Array.isArray(value);
  return Array.isArray(value);
}

/** Pydantic's 422 for the first field of the wrong type, as FastAPI words it. */
function checkTypes(body: any): object | null {
  if (!body || typeof body !== "object" || Buffer.isBuffer(body)) return { detail: [{ loc: ["body"], msg: "field required", type: "value_error.missing" }] };
  const wrong = Object.entries(FIELD_TYPES).find(([field, type]) => body[field] !== undefined && !hasType(body[field], type));
  if (!wrong) return null;
  const [msg, type] = TYPE_ERRORS[wrong[1]];
  return { detail: [{ loc: ["body", wrong[0]], msg, type }] };
}

function checkInitImages(body: any): { status: number; body: object } | null {
  if (!body.init_images?.length) return { status: 404, body: { detail: "Init image not found" } };
  for (const image of body.init_images) {
    try {
      imageSize(Buffer.from(String(image).replace(/^data:[^,]*,/, ""), "base64"));
    } catch {
      return { status: 500, body: { detail: "Invalid encoded image" } };
    }
  }
  return null;
}

function buildAnswer(task: TSdTask, b: TSdWebuiBehaviour) {
  const body = task.body;
  const [width, height] = [body.width ?? 512, body.height ?? 512];
  const count = (body.batch_size ?? 1) * (body.n_iter ?? 1);
  const seed = body.seed === undefined || body.seed === -1 ? crypto.randomInt(2 ** 32) : body.seed;
  const images = Array.from({ length: count }, (_, i) => drawPicture(width, height, 60 + i * 40).toString("base64"));
  if (b.returnGrid && count > 1) images.unshift(drawPicture(width * count, height, 250).toString("base64"));
  const info = {
    prompt: body.prompt ?? "",
    all_prompts: Array(count).fill(body.prompt ?? ""),
    negative_prompt: body.negative_prompt ?? "",
    seed,
    all_seeds: Array.from({ length: count }, (_, i) => seed + i),
    width,
    height,
    sampler_name: body.sampler_name ?? "Euler",
    cfg_scale: body.cfg_scale ?? 7,
    steps: body.steps ?? 20,
    batch_size: body.batch_size ?? 1,
    sd_model_name: body.override_settings?.sd_model_checkpoint ?? "v1-5-pruned-emaonly",
    job_timestamp: task.id,
  };
  return { images, parameters: body, info: JSON.stringify(info) };
}

export async function startFakeSdWebui(opts: { credentials?: string; samplers?: string[] } = {}) {
  const samplers = opts.samplers ?? SD_SAMPLERS;
  const tasks = new Map<string, TSdTask>();
  let behaviour: TSdWebuiBehaviour = {};
  let current: TSdTask | null = null;

  function checkAuth(got: TFakeRequest, res: http.ServerResponse) {
    if (!opts.credentials) return true;
    const header = String(got.headers.authorization ?? "");
    if (!/^Basic /i.test(header)) return void sendJson(res, 401, { detail: "Not authenticated" }, { "www-authenticate": "Basic" });
    if (Buffer.from(header.slice(6), "base64").toString("utf8") !== opts.credentials)
      return void sendJson(res, 401, { detail: "Incorrect username or password" }, { "www-authenticate": "Basic" });
    return true;
  }

  function answerProgress(res: http.ServerResponse) {
    const task = current?.state === "running" ? current : null;
    const steps = Number(task?.body.steps ?? 20);
    const progress = task ? task.progress : 0;
    sendJson(res, 200, {
      progress,
      eta_relative: task ? Math.max(0, (1 - progress) * 5) : 0,
      state: {
        skipped: false,
        interrupted: false,
        stopping_generation: false,
        job: task ? `scripts_${task.endpoint}` : "",
        job_count: task ? 1 : 0,
        job_timestamp: task?.id ?? "0",
        job_no: 0,
        sampling_step: Math.floor(progress * steps),
        sampling_steps: steps,
      },
      current_image: null,
      textinfo: null,
    });
  }

  async function draw(endpoint: TSdTask["endpoint"], body: any, res: http.ServerResponse, b: TSdWebuiBehaviour) {
    const gate = makeGate();
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const task: TSdTask = { id: `${stamp}-${crypto.randomBytes(3).toString("hex")}`, endpoint, body, state: "running", progress: 0, finish: gate.open };
    tasks.set(task.id, task);
    current = task;
    if (b.hold) {
      await gate.opened;
    } else {
      const steps = Math.max(1, b.pollsUntilDone ?? 1);
      for (let i = 0; i < steps; i++) {
        task.progress = i / steps;
        await new Promise((r) => setTimeout(r, b.stepMs ?? 300));
      }
    }
    if (b.outcome === "failed") {
      task.state = "failed";
      return sendJson(res, 500, { error: "OutOfMemoryError", detail: "", body: "", errors: "CUDA out of memory. Tried to allocate 2.00 GiB" });
    }
    task.state = "succeeded";
    sendJson(res, 200, buildAnswer(task, b));
  }

  const loopback = await startLoopback(async (got, res) => {
    if (!got.path.startsWith("/sdapi/v1/")) return sendJson(res, 404, { detail: "Not Found" });
    if (!checkAuth(got, res)) return;
    if (got.method === "GET" && got.path === "/sdapi/v1/progress") return answerProgress(res);
    if (got.method === "GET" && got.path === "/sdapi/v1/samplers")
      return sendJson(
        res,
        200,
        samplers.map((name) => ({ name, aliases: [], options: {} })),
      );
    const endpoint = ({ "/sdapi/v1/txt2img": "txt2img", "/sdapi/v1/img2img": "img2img" } as const)[got.path];
    if (got.method !== "POST" || !endpoint) return sendJson(res, 404, { detail: "Not Found" });
    const b = behaviour;
    if (b.submitError === "auth") return sendJson(res, 401, { detail: "Incorrect username or password" }, { "www-authenticate": "Basic" });
    if (b.submitError === "bad_request")
      return sendJson(res, 422, { detail: [{ loc: ["body", "steps"], msg: "value is not a valid integer", type: "type_error.integer" }] });
    const typeError = checkTypes(got.body);
    if (typeError) return sendJson(res, 422, typeError);
    if (got.body.sampler_name !== undefined && !samplers.includes(got.body.sampler_name)) return sendJson(res, 404, { detail: "Sampler not found" });
    const initError = endpoint === "img2img" ? checkInitImages(got.body) : null;
    if (initError) return sendJson(res, initError.status, initError.body);
    await draw(endpoint, got.body, res, b);
  });

  return {
    url: loopback.origin,
    requests: loopback.requests,
    tasks,
    behave(b: TSdWebuiBehaviour) {
      behaviour = { ...b };
    },
    finish(taskId: string) {
      const task = tasks.get(taskId);
      if (!task) throw new Error(`no task ${taskId}`);
      task.finish();
    },
    close: loopback.close,
  };
}
