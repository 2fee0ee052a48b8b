// The SD WebUI adapter against a loopback AUTOMATIC1111 API with --api-auth: the drawing's fields as
// the API names them, the reference picture inline for img2img, progress read from /progress while
// the blocking call runs, and the API's refusals mapped to our words. A WebUI has no content review,
// no balance and no rate limit, so those refusals do not arise here.
import { imageSize } from "image-size";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ProviderError, type TImageRequest, type TProviderContext } from "../../server/media/providers/provider";
import { sdWebuiProvider } from "../../server/media/providers/sd-webui";
import { startFakeSdWebui } from "../fakes/fake-sd-webui";
import { waitUntil } from "../fakes/media-fake-kit";
import { makePng } from "../helpers/png";

const CREDENTIALS = "painter:s3cret-pass";
let fake: Awaited<ReturnType<typeof startFakeSdWebui>>;

const context = (over: Partial<TProviderContext> = {}): TProviderContext => ({
  baseUrl: fake.url,
  secret: CREDENTIALS,
  fetch: (url, init) => fetch(url, init),
  jobId: "job-sd",
  ...over,
});
const picture = (over: Partial<TImageRequest> = {}): TImageRequest => ({
  kind: "image",
  model: "sd_xl_base_1.0.safetensors",
  prompt: "a lighthouse at dusk, oil painting",
  negativePrompt: "blurry, watermark",
  width: 1344,
  height: 768,
  aspectRatio: "16:9",
  sampler: "DPM++ 2M Karras",
  steps: 28,
  guidance: 6.5,
  quality: "standard",
  count: 2,
  seed: 12345,
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

function picturesOf(status: Awaited<ReturnType<typeof sdWebuiProvider.submit>>["status"]) {
  if (status?.state !== "succeeded") throw new Error(`expected success, got ${JSON.stringify(status)}`);
  return status.outputs.map((o) => {
    if (!("bytes" in o)) throw new Error("expected bytes");
    return o;
  });
}

beforeAll(async () => {
  fake = await startFakeSdWebui({ credentials: CREDENTIALS });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.behave({ stepMs: 50 });
  fake.requests.length = 0;
});

describe("SD WebUI drawing", () => {
  it("draws txt2img with every field the request asked, over HTTP Basic, and hands back PNG bytes", async () => {
    const submitted = await sdWebuiProvider.submit(context(), picture());
    const pictures = picturesOf(submitted.status);
    expect(pictures).toHaveLength(2);
    for (const p of pictures) {
      expect(p.mime).toBe("image/png");
      expect(imageSize(p.bytes)).toMatchObject({ width: 512, height: 293 });
    }
    const [call] = fake.requests.filter((r) => r.path === "/sdapi/v1/txt2img");
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from(CREDENTIALS).toString("base64")}`);
    expect(call.body).toMatchObject({
      prompt: "a lighthouse at dusk, oil painting",
      negative_prompt: "blurry, watermark",
      sampler_name: "DPM++ 2M Karras",
      steps: 28,
      cfg_scale: 6.5,
      width: 1344,
      height: 768,
      batch_size: 2,
      seed: 12345,
      override_settings: { sd_model_checkpoint: "sd_xl_base_1.0.safetensors" },
    });
  });

  it("sends the reference picture inline to img2img", async () => {
    const reference = makePng(96, 64, 70);
    const submitted = await sdWebuiProvider.submit(context(), picture({ count: 1, reference: { bytes: reference, mime: "image/png", width: 96, height: 64 } }));
    expect(picturesOf(submitted.status)).toHaveLength(1);
    const [call] = fake.requests.filter((r) => r.path === "/sdapi/v1/img2img");
    expect(call.body.init_images).toEqual([reference.toString("base64")]);
    expect(call.body.denoising_strength).toBeGreaterThan(0);
    expect(call.body.prompt).toBe("a lighthouse at dusk, oil painting");
  });

  it("leaves out the grid a WebUI set to return it puts first", async () => {
    fake.behave({ returnGrid: true, stepMs: 20 });
    const pictures = picturesOf((await sdWebuiProvider.submit(context(), picture({ count: 3, width: 512, height: 512 }))).status);
    expect(pictures).toHaveLength(3);
    for (const p of pictures) expect(imageSize(p.bytes)).toMatchObject({ width: 512, height: 512 });
  });

  it("reports progress from /progress while txt2img blocks, as 0-99", async () => {
    fake.behave({ hold: true });
    const seen: number[] = [];
    const pending = sdWebuiProvider.submit(context({ onProgress: (p) => seen.push(p) }), picture());
    const task = await waitUntil(() => [...fake.tasks.values()].find((t) => t.state === "running"));
    task.progress = 0.3;
    await waitUntil(() => seen.includes(30), 5000, "progress 30");
    task.progress = 0.76;
    await waitUntil(() => seen.includes(76), 5000, "progress 76");
    task.progress = 1;
    await waitUntil(() => seen.includes(99), 5000, "progress 99");
    fake.finish(task.id);
    expect(picturesOf((await pending).status)).toHaveLength(2);
    expect(seen.indexOf(30)).toBeLessThan(seen.indexOf(76));
    expect(Math.max(...seen)).toBe(99);
    const progressReads = fake.requests.filter((r) => r.path === "/sdapi/v1/progress");
    expect(progressReads.length).toBeGreaterThanOrEqual(3);
    expect(progressReads[0].headers.authorization).toMatch(/^Basic /);
  });

  it("reads no progress when nobody listens", async () => {
    fake.behave({ pollsUntilDone: 3, stepMs: 300 });
    await sdWebuiProvider.submit(context(), picture({ count: 1 }));
    expect(fake.requests.filter((r) => r.path === "/sdapi/v1/progress")).toHaveLength(0);
  });
});

describe("SD WebUI refusals", () => {
  it("refuses wrong or missing credentials with the API's 401, mapped to auth", async () => {
    const wrong = await refusalOf(sdWebuiProvider.submit(context({ secret: "painter:wrong" }), picture()));
    expect(wrong.failure).toBe("auth");
    expect(wrong.message).toBe("Incorrect username or password");
    const none = await refusalOf(sdWebuiProvider.submit(context({ secret: "" }), picture()));
    expect(none.failure).toBe("auth");
    expect(none.message).toBe("Not authenticated");
  });

  it("maps a failed drawing (500) to upstream with the WebUI's reason", async () => {
    fake.behave({ outcome: "failed", stepMs: 20 });
    const err = await refusalOf(sdWebuiProvider.submit(context(), picture()));
    expect(err.failure).toBe("upstream");
    expect(err.message).toContain("OutOfMemoryError");
  });

  it("maps a validation refusal (422) and an unknown sampler (404) to bad_request", async () => {
    fake.behave({ submitError: "bad_request" });
    const invalid = await refusalOf(sdWebuiProvider.submit(context(), picture()));
    expect(invalid.failure).toBe("bad_request");
    expect(invalid.message).toBe("body.steps: value is not a valid integer");
    fake.behave({});
    const sampler = await refusalOf(sdWebuiProvider.submit(context(), picture({ sampler: "Nonexistent Sampler" })));
    expect(sampler.failure).toBe("bad_request");
    expect(sampler.message).toBe("Sampler not found");
  });

  it("maps a WebUI without its API (404 elsewhere) and an unreachable one to upstream", async () => {
    const noApi = await refusalOf(sdWebuiProvider.submit(context({ baseUrl: `${fake.url}/not-here` }), picture()));
    expect(noApi.failure).toBe("upstream");
    const down = await refusalOf(sdWebuiProvider.submit(context({ baseUrl: "http://127.0.0.1:9" }), picture()));
    expect(down.failure).toBe("upstream");
  });

  it("has no task to poll since the drawing answered at submit", async () => {
    expect(await sdWebuiProvider.poll(context(), "sdwebui-x", picture())).toMatchObject({ state: "failed", failure: "upstream" });
  });
});
