// A loopback stand-in for a ComfyUI server (behind a proxy wanting a Bearer token, when given one):
// POST /prompt validates the graph as ComfyUI does (known node classes, required inputs, values
// within each input's range or list, links between nodes of matching types, at least one output
// node) and answers {prompt_id, number, node_errors} or 400 {error, node_errors}; GET /history/{id}
// answers {} while the prompt waits or runs, then its outputs and status; GET /queue lists
// queue_running and queue_pending; GET /view serves the saved PNGs (404 once they are gone).
// A prompt finishes after `pollsUntilDone` history reads (or, held, after finish(taskId)).
import crypto from "node:crypto";
import type http from "node:http";
import { drawPicture, isInteger, sendJson, startLoopback, type TFakeBehaviourBase, type TFakeRequest } from "./media-fake-kit";

export type TComfyBehaviour = TFakeBehaviourBase & {
  submitError?: "auth" | "bad_request";
  /** The saved files are gone from the output folder by the time they are asked for. */
  expiredLinks?: boolean;
};

export type TComfyTask = {
  id: string;
  number: number;
  graph: Record<string, any>;
  clientId: string | undefined;
  state: "pending" | "succeeded" | "failed";
  historyReads: number;
  behaviour: TComfyBehaviour;
  released: boolean;
  entry?: object;
};

export const COMFY_SAMPLER_NAMES = ["euler", "euler_ancestral", "heun", "dpm_2", "lms", "dpmpp_2m", "dpmpp_sde", "dpmpp_2m_sde", "ddim", "uni_pc"];
const SCHEDULERS = ["normal", "karras", "exponential", "sgm_uniform", "simple", "ddim_uniform", "beta"];

type TInputSpec = { link?: string; int?: [number, number]; float?: [number, number]; string?: true; choices?: () => string[] };
type TNodeSpec = { outputs: string[]; output?: true; inputs: Record<string, TInputSpec> };
type TNodeError = { type: string; message: string; details: string; extra_info: Record<string, unknown> };

function buildNodeSpecs(checkpoints: string[]): Record<string, TNodeSpec> {
  const size: TInputSpec = { int: [16, 16384] };
  return {
    CheckpointLoaderSimple: { outputs: ["MODEL", "CLIP", "VAE"], inputs: { ckpt_name: { choices: () => checkpoints } } },
    CLIPTextEncode: { outputs: ["CONDITIONING"], inputs: { text: { string: true }, clip: { link: "CLIP" } } },
    EmptyLatentImage: { outputs: ["LATENT"], inputs: { width: size, height: size, batch_size: { int: [1, 4096] } } },
    KSampler: {
      outputs: ["LATENT"],
      inputs: {
        model: { link: "MODEL" },
        seed: { int: [0, Number.MAX_SAFE_INTEGER] },
        steps: { int: [1, 10000] },
        cfg: { float: [0, 100] },
        sampler_name: { choices: () => COMFY_SAMPLER_NAMES },
        scheduler: { choices: () => SCHEDULERS },
        positive: { link: "CONDITIONING" },
        negative: { link: "CONDITIONING" },
        latent_image: { link: "LATENT" },
        denoise: { float: [0, 1] },
      },
    },
    VAEDecode: { outputs: ["IMAGE"], inputs: { samples: { link: "LATENT" }, vae: { link: "VAE" } } },
    SaveImage: { outputs: [], output: true, inputs: { images: { link: "IMAGE" }, filename_prefix: { string: true } } },
  };
}

function checkInput(graph: Record<string, any>, specs: Record<string, TNodeSpec>, name: string, spec: TInputSpec, value: unknown): TNodeError | null {
  const error = (type: string, message: string, details: string) => ({ type, message, details, extra_info: { input_name: name, received_value: value } });
  if (value === undefined) return error("required_input_missing", "Required input is missing", name);
  if (spec.link) {
    if (!Array.isArray(value) || value.length !== 2 || !graph[String(value[0])])
      return error("bad_linked_input", "Bad linked input, must be a length-2 list of [node_id, slot_index]", `${name}, ${JSON.stringify(value)}`);
    const received = specs[graph[String(value[0])].class_type]?.outputs[Number(value[1])];
    if (received !== spec.link)
      return error(
        "return_type_mismatch",
        "Return type mismatch between linked nodes",
        `${name}, received_type(${received}) mismatch input_type(${spec.link})`,
      );
    return null;
  }
  if (spec.string)
    return typeof value === "string" ? null : error("invalid_input_type", "Failed to convert an input value to a STRING value", `${name}, ${value}`);
  if (spec.choices) {
    const list = spec.choices();
    return list.includes(String(value)) ? null : error("value_not_in_list", "Value not in list", `${name}: '${value}' not in ${JSON.stringify(list)}`);
  }
  const [min, max] = (spec.int ?? spec.float)!;
  if (typeof value !== "number" || (spec.int && !isInteger(value)))
    return error("invalid_input_type", `Failed to convert an input value to a ${spec.int ? "INT" : "FLOAT"} value`, `${name}, ${value}`);
  if (value < min) return error("value_smaller_than_min", `Value ${value} smaller than min of ${min}`, name);
  if (value > max) return error("value_bigger_than_max", `Value ${value} bigger than max of ${max}`, name);
  return null;
}

/** ComfyUI's answer to a graph it cannot run, or null when it can. */
function validateGraph(graph: unknown, specs: Record<string, TNodeSpec>): object | null {
  const invalid = (type: string, message: string, details = "") => ({ error: { type, message, details, extra_info: {} }, node_errors: {} });
  if (!graph || typeof graph !== "object") return invalid("no_prompt", "No prompt provided");
  const nodes = graph as Record<string, any>;
  for (const [id, node] of Object.entries(nodes)) {
    if (!node?.class_type) return invalid("invalid_prompt", "Cannot execute because a node is missing the class_type property.", `Node ID '#${id}'`);
    if (!specs[node.class_type]) return invalid("invalid_prompt", `Cannot execute because node ${node.class_type} does not exist.`, `Node ID '#${id}'`);
  }
  const outputs = Object.keys(nodes).filter((id) => specs[nodes[id].class_type].output);
  if (!outputs.length) return invalid("prompt_no_outputs", "Prompt has no outputs");
  const nodeErrors: Record<string, object> = {};
  for (const [id, node] of Object.entries(nodes)) {
    const spec = specs[node.class_type];
    const errors = Object.entries(spec.inputs).flatMap(([name, input]) => checkInput(nodes, specs, name, input, node.inputs?.[name]) ?? []);
    if (errors.length) nodeErrors[id] = { errors, dependent_outputs: outputs, class_type: node.class_type };
  }
  if (!Object.keys(nodeErrors).length) return null;
  return {
    error: { type: "prompt_outputs_failed_validation", message: "Prompt outputs failed validation", details: "", extra_info: {} },
    node_errors: nodeErrors,
  };
}

export async function startFakeComfyui(opts: { token?: string; checkpoints?: string[] } = {}) {
  const checkpoints = opts.checkpoints ?? ["v1-5-pruned-emaonly.safetensors", "sd_xl_base_1.0.safetensors"];
  const specs = buildNodeSpecs(checkpoints);
  const tasks = new Map<string, TComfyTask>();
  const files = new Map<string, Buffer>();
  let behaviour: TComfyBehaviour = {};
  let number = 0;
  let fileCounter = 0;

  /** Runs the prompt to its end: saves the pictures (unless they are to be gone) and writes its history. */
  function complete(task: TComfyTask) {
    const now = () => Date.now();
    const started = [
      ["execution_start", { prompt_id: task.id, timestamp: now() }],
      ["execution_cached", { nodes: [], prompt_id: task.id, timestamp: now() }],
    ];
    const saveIds = Object.keys(task.graph).filter((id) => specs[task.graph[id].class_type].output);
    const promptEcho = [task.number, task.id, task.graph, { client_id: task.clientId }, saveIds];
    if (task.behaviour.outcome === "failed") {
      task.state = "failed";
      const error = {
        prompt_id: task.id,
        node_id: "3",
        node_type: "KSampler",
        executed: ["4", "5", "6", "7"],
        exception_message: "Allocation on device 0 would exceed allowed memory. (out of memory)",
        exception_type: "torch.OutOfMemoryError",
        traceback: ['  File "execution.py", line 323, in execute\n'],
        current_inputs: {},
        current_outputs: {},
        timestamp: now(),
      };
      task.entry = {
        prompt: promptEcho,
        outputs: {},
        status: { status_str: "error", completed: false, messages: [...started, ["execution_error", error]] },
        meta: {},
      };
      return;
    }
    const latent = Object.values(task.graph).find((n: any) => n.class_type === "EmptyLatentImage")?.inputs ?? {};
    const outputs: Record<string, object> = {};
    for (const id of saveIds) {
      const prefix = String(task.graph[id].inputs.filename_prefix);
      const images = Array.from({ length: latent.batch_size ?? 1 }, (_, i) => {
        const filename = `${prefix}_${String(++fileCounter).padStart(5, "0")}_.png`;
        if (!task.behaviour.expiredLinks) files.set(`output//${filename}`, drawPicture(latent.width ?? 512, latent.height ?? 512, 60 + i * 40));
        return { filename, subfolder: "", type: "output" };
      });
      outputs[id] = { images };
    }
    task.state = "succeeded";
    const status = { status_str: "success", completed: true, messages: [...started, ["execution_success", { prompt_id: task.id, timestamp: now() }]] };
    task.entry = {
      prompt: promptEcho,
      outputs,
      status,
      meta: Object.fromEntries(saveIds.map((id) => [id, { node_id: id, display_node: id, parent_node: null, real_node_id: id }])),
    };
  }

  function readHistory(task: TComfyTask) {
    if (task.state === "pending") {
      task.historyReads++;
      const ready = task.behaviour.hold ? task.released : task.historyReads > (task.behaviour.pollsUntilDone ?? 1);
      if (ready) complete(task);
    }
    return task.entry ? { [task.id]: task.entry } : {};
  }

  function answerQueue(res: http.ServerResponse) {
    const waiting = [...tasks.values()].filter((t) => t.state === "pending").sort((a, b) => a.number - b.number);
    const entry = (t: TComfyTask) => [
      t.number,
      t.id,
      t.graph,
      { client_id: t.clientId },
      Object.keys(t.graph).filter((id) => specs[t.graph[id].class_type].output),
    ];
    sendJson(res, 200, { queue_running: waiting.slice(0, 1).map(entry), queue_pending: waiting.slice(1).map(entry) });
  }

  function queuePrompt(got: TFakeRequest, res: http.ServerResponse) {
    const b = behaviour;
    if (b.submitError === "auth") return res.writeHead(401, { "content-type": "text/plain" }).end("401: Unauthorized");
    const body = got.body && typeof got.body === "object" && !Buffer.isBuffer(got.body) ? got.body : {};
    const graph =
      b.submitError === "bad_request"
        ? { ...body.prompt, "4": { class_type: "CheckpointLoaderSimple", inputs: { ckpt_name: "missing.safetensors" } } }
        : body.prompt;
    const refusal = validateGraph(graph, specs);
    if (refusal) return sendJson(res, 400, refusal);
    const task: TComfyTask = {
      id: crypto.randomUUID(),
      number: number++,
      graph,
      clientId: body.client_id,
      state: "pending",
      historyReads: 0,
      behaviour: b,
      released: false,
    };
    tasks.set(task.id, task);
    sendJson(res, 200, { prompt_id: task.id, number: task.number, node_errors: {} });
  }

  const loopback = await startLoopback((got, res) => {
    if (opts.token && got.headers.authorization !== `Bearer ${opts.token}`)
      return void res.writeHead(401, { "content-type": "text/plain" }).end("401: Unauthorized");
    if (got.method === "POST" && got.path === "/prompt") return queuePrompt(got, res);
    if (got.method === "GET" && got.path === "/queue") return answerQueue(res);
    if (got.method === "GET" && got.path.startsWith("/history/")) {
      const task = tasks.get(decodeURIComponent(got.path.slice("/history/".length)));
      return sendJson(res, 200, task ? readHistory(task) : {});
    }
    if (got.method === "GET" && got.path === "/view") {
      const q = got.query;
      const bytes = files.get(`${q.get("type") ?? "output"}/${q.get("subfolder") ?? ""}/${q.get("filename") ?? ""}`);
      if (!bytes) return void res.writeHead(404).end();
      return void res.writeHead(200, { "content-type": "image/png", "content-disposition": `filename="${q.get("filename")}"` }).end(bytes);
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("404: Not Found");
  });

  return {
    url: loopback.origin,
    requests: loopback.requests,
    tasks,
    checkpoints,
    behave(b: TComfyBehaviour) {
      behaviour = { ...b };
    },
    finish(taskId: string) {
      const task = tasks.get(taskId);
      if (!task) throw new Error(`no task ${taskId}`);
      task.released = true;
    },
    /** Forgets every prompt, file and request, as a fresh server: a prompt left waiting by one test would hold the queue for the next. */
    reset() {
      tasks.clear();
      files.clear();
      loopback.requests.length = 0;
      behaviour = {};
    },
    close: loopback.close,
  };
}
