// The ComfyUI adapter against a loopback ComfyUI behind a Bearer-token proxy: the text-to-image graph
// it queues (validated node by node as ComfyUI does), queue and history read into our states, the
// saved pictures downloaded through /view, and refusals mapped to our words. ComfyUI has no content
// review, no balance and no rate limit of its own, so those refusals do not arise here.
import { imageSize } from "image-size";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { comfyuiProvider } from "../../server/media/providers/comfyui";
import { ProviderError, type TImageRequest, type TProviderContext, type TProviderStatus } from "../../server/media/providers/provider";
import { startFakeComfyui } from "../fakes/fake-comfyui";
import { makePng } from "../helpers/png";

const TOKEN = "comfy-proxy-token-42";
let fake: Awaited<ReturnType<typeof startFakeComfyui>>;

const context = (over: Partial<TProviderContext> = {}): TProviderContext => ({
  baseUrl: fake.url,
  secret: TOKEN,
  fetch: (url, init) => fetch(url, init),
  jobId: "job-comfy-1",
  ...over,
});
const picture = (over: Partial<TImageRequest> = {}): TImageRequest => ({
  kind: "image",
  model: "sd_xl_base_1.0.safetensors",
  prompt: "a paper boat on a rainy street",
  negativePrompt: "text, watermark",
  width: 768,
  height: 1344,
  aspectRatio: "9:16",
  sampler: "dpmpp_2m",
  steps: 25,
  guidance: 5.5,
  quality: "standard",
  count: 2,
  seed: 987654321,
  ...over,
});

async function refusalOf(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

/** Polls until the task leaves queued/running, returning every status seen. */
async function pollToEnd(taskId: string, req: TImageRequest) {
  const seen: TProviderStatus[] = [];
  for (let i = 0; i < 20; i++) {
    const status = await comfyuiProvider.poll(context(), taskId, req);
    seen.push(status);
    if (status.state !== "queued" && status.state !== "running") return seen;
  }
  throw new Error("the task never finished");
}

beforeAll(async () => {
  fake = await startFakeComfyui({ token: TOKEN });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe("ComfyUI drawing", () => {
  it("queues the text-to-image graph with every field the request asked", async () => {
    const { taskId } = await comfyuiProvider.submit(context(), picture());
    const [call] = fake.requests.filter((r) => r.path === "/prompt");
    expect(call.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(call.body.client_id).toBe("job-comfy-1");
    expect(fake.tasks.get(taskId)?.clientId).toBe("job-comfy-1");
    const nodes = Object.values(call.body.prompt) as { class_type: string; inputs: Record<string, unknown> }[];
    const byClass = (c: string) => nodes.filter((n) => n.class_type === c);
    expect(byClass("CheckpointLoaderSimple")[0].inputs.ckpt_name).toBe("sd_xl_base_1.0.safetensors");
    expect(byClass("CLIPTextEncode").map((n) => n.inputs.text)).toEqual(["a paper boat on a rainy street", "text, watermark"]);
    expect(byClass("EmptyLatentImage")[0].inputs).toEqual({ width: 768, height: 1344, batch_size: 2 });
    expect(byClass("KSampler")[0].inputs).toMatchObject({ seed: 987654321, steps: 25, cfg: 5.5, sampler_name: "dpmpp_2m", scheduler: "normal", denoise: 1 });
    expect(byClass("VAEDecode")).toHaveLength(1);
    expect(byClass("SaveImage")[0].inputs.filename_prefix).toBe("zelin");
    // The positive prompt feeds KSampler's positive input, the negative its negative.
    const graph = call.body.prompt;
    const sampler = byClass("KSampler")[0].inputs as Record<string, [string, number]>;
    expect(graph[sampler.positive[0]].inputs.text).toBe("a paper boat on a rainy street");
    expect(graph[sampler.negative[0]].inputs.text).toBe("text, watermark");
  });

  it("reads running from the queue, then downloads the saved pictures as bytes", async () => {
    fake.behave({ pollsUntilDone: 2 });
    const req = picture();
    const { taskId } = await comfyuiProvider.submit(context(), req);
    const seen = await pollToEnd(taskId, req);
    expect(seen.map((s) => s.state)).toEqual(["running", "running", "succeeded"]);
    const done = seen.at(-1)!;
    if (done.state !== "succeeded") throw new Error("expected success");
    expect(done.outputs).toHaveLength(2);
    for (const out of done.outputs) {
      if (!("bytes" in out)) throw new Error("expected bytes");
      expect(out.mime).toBe("image/png");
      expect(imageSize(out.bytes)).toMatchObject({ width: 293, height: 512 });
    }
    const views = fake.requests.filter((r) => r.path === "/view");
    expect(views).toHaveLength(2);
    expect(views[0].query.get("type")).toBe("output");
    expect(views[0].query.get("filename")).toMatch(/^zelin_\d{5}_\.png$/);
    expect(views[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("maps queue_running to running and queue_pending to queued", async () => {
    fake.behave({ hold: true });
    const first = await comfyuiProvider.submit(context(), picture({ count: 1 }));
    const second = await comfyuiProvider.submit(context(), picture({ count: 1 }));
    expect(await comfyuiProvider.poll(context(), first.taskId, picture())).toMatchObject({ state: "running", providerState: "queue_running" });
    expect(await comfyuiProvider.poll(context(), second.taskId, picture())).toMatchObject({ state: "queued", providerState: "queue_pending" });
    fake.finish(first.taskId);
    expect((await comfyuiProvider.poll(context(), first.taskId, picture())).state).toBe("succeeded");
    expect(await comfyuiProvider.poll(context(), second.taskId, picture())).toMatchObject({ state: "running" });
    fake.finish(second.taskId);
    expect((await comfyuiProvider.poll(context(), second.taskId, picture())).state).toBe("succeeded");
  });

  it("maps an execution error to a failed status with ComfyUI's reason", async () => {
    fake.behave({ outcome: "failed" });
    const { taskId } = await comfyuiProvider.submit(context(), picture());
    const done = (await pollToEnd(taskId, picture())).at(-1)!;
    expect(done).toMatchObject({ state: "failed", failure: "upstream", providerState: "error" });
    expect(done.state === "failed" && done.message).toContain("KSampler");
    expect(done.state === "failed" && done.message).toContain("out of memory");
  });

  it("fails as expired when the saved files are gone, and the file's address answers 404", async () => {
    fake.behave({ expiredLinks: true });
    const { taskId } = await comfyuiProvider.submit(context(), picture({ count: 1 }));
    const done = (await pollToEnd(taskId, picture())).at(-1)!;
    expect(done).toMatchObject({ state: "failed", failure: "expired" });
    const view = fake.requests.filter((r) => r.path === "/view").at(-1)!;
    const plain = await fetch(`${fake.url}/view?${view.query}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(plain.status).toBe(404);
  });

  it("fails a prompt the server does not know (it restarted and forgot its queue)", async () => {
    expect(await comfyuiProvider.poll(context(), "00000000-0000-4000-8000-000000000000", picture())).toMatchObject({ state: "failed", failure: "upstream" });
  });
});

describe("ComfyUI refusals", () => {
  it("maps node errors at submit (a checkpoint or sampler it does not have) to bad_request", async () => {
    const checkpoint = await refusalOf(comfyuiProvider.submit(context(), picture({ model: "no-such-model.safetensors" })));
    expect(checkpoint.failure).toBe("bad_request");
    expect(checkpoint.message).toContain("Prompt outputs failed validation");
    expect(checkpoint.message).toContain("ckpt_name: 'no-such-model.safetensors' not in");
    const sampler = await refusalOf(comfyuiProvider.submit(context(), picture({ sampler: "Euler a" })));
    expect(sampler.failure).toBe("bad_request");
    expect(sampler.message).toContain("KSampler #3: Value not in list: sampler_name");
    expect([...fake.tasks.values()].some((t) => t.graph["4"].inputs.ckpt_name === "no-such-model.safetensors")).toBe(false);
  });

  it("maps a size outside ComfyUI's range to bad_request", async () => {
    const err = await refusalOf(comfyuiProvider.submit(context(), picture({ width: 8, height: 8 })));
    expect(err.failure).toBe("bad_request");
    expect(err.message).toContain("smaller than min of 16");
  });

  it("refuses a wrong or missing token, mapped to auth, at submit and at poll", async () => {
    expect((await refusalOf(comfyuiProvider.submit(context({ secret: "wrong" }), picture()))).failure).toBe("auth");
    expect((await refusalOf(comfyuiProvider.submit(context({ secret: "" }), picture()))).failure).toBe("auth");
    const { taskId } = await comfyuiProvider.submit(context(), picture());
    expect(await comfyuiProvider.poll(context({ secret: "wrong" }), taskId, picture())).toMatchObject({ state: "failed", failure: "auth" });
  });

  it("throws upstream for an unreachable server, and refuses what the text-to-image workflow cannot do", async () => {
    expect((await refusalOf(comfyuiProvider.submit(context({ baseUrl: "http://127.0.0.1:9" }), picture()))).failure).toBe("upstream");
    expect((await refusalOf(comfyuiProvider.poll(context({ baseUrl: "http://127.0.0.1:9" }), "x", picture()))).failure).toBe("upstream");
    const reference = { bytes: makePng(16, 16), mime: "image/png", width: 16, height: 16 };
    expect((await refusalOf(comfyuiProvider.submit(context(), picture({ reference })))).failure).toBe("bad_request");
  });
});
