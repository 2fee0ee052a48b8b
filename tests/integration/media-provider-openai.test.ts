// The OpenAI media adapter against a loopback OpenAI (images and speech): each model's vocabulary
// (sizes, n, quality, style, response_format), the reference picture sent inline in a multipart
// edit, speech bytes, and every refusal OpenAI answers mapped to our words.
import fs from "node:fs";
import path from "node:path";
import { imageSize } from "image-size";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openaiMediaProvider } from "../../server/media/providers/openai-media";
import { ProviderError, type TImageRequest, type TProviderContext, type TSpeechRequest } from "../../server/media/providers/provider";
import { startFakeOpenaiMedia } from "../fakes/fake-openai-media";
import { waitUntil } from "../fakes/media-fake-kit";
import { makePng } from "../helpers/png";

let fake: Awaited<ReturnType<typeof startFakeOpenaiMedia>>;
const SAMPLE_MP3 = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/media/sample.mp3"));

const context = (over: Partial<TProviderContext> = {}): TProviderContext => ({
  baseUrl: fake.url,
  secret: fake.apiKey,
  fetch: (url, init) => fetch(url, init),
  jobId: "job-openai",
  ...over,
});
const picture = (over: Partial<TImageRequest> = {}): TImageRequest => ({
  kind: "image",
  model: "dall-e-3",
  prompt: "a red fox in the snow",
  width: 1344,
  height: 768,
  aspectRatio: "16:9",
  quality: "hd",
  style: "natural",
  count: 1,
  ...over,
});
const speech = (over: Partial<TSpeechRequest> = {}): TSpeechRequest => ({
  kind: "speech",
  model: "tts-1",
  text: "你好，欢迎来到泽林。",
  voice: "nova",
  format: "mp3",
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

beforeAll(async () => {
  fake = await startFakeOpenaiMedia();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.behave({});
  fake.requests.length = 0;
});

describe("OpenAI pictures", () => {
  it("draws with dall-e-3 in its own sizes and quality, one call a picture, and hands back PNG bytes", async () => {
    const submitted = await openaiMediaProvider.submit(context(), picture({ count: 2 }));
    expect(submitted.status?.state).toBe("succeeded");
    const outputs = submitted.status?.state === "succeeded" ? submitted.status.outputs : [];
    expect(outputs).toHaveLength(2);
    for (const output of outputs) {
      if (!("bytes" in output)) throw new Error("expected bytes");
      expect(output.mime).toBe("image/png");
      expect(imageSize(output.bytes)).toMatchObject({ type: "png", width: 512, height: 293 });
    }
    const calls = fake.requests.filter((r) => r.path === "/v1/images/generations");
    expect(calls).toHaveLength(2);
    expect(calls[0].headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(calls[0].body).toEqual({
      model: "dall-e-3",
      prompt: "a red fox in the snow",
      n: 1,
      size: "1792x1024",
      quality: "hd",
      style: "natural",
      response_format: "b64_json",
    });
  });

  it("asks gpt-image models for all pictures at once, without response_format or style", async () => {
    const submitted = await openaiMediaProvider.submit(
      context(),
      picture({ model: "gpt-image-1", width: 896, height: 1152, aspectRatio: "3:4", quality: "standard", count: 3 }),
    );
    expect(submitted.status?.state === "succeeded" && submitted.status.outputs).toHaveLength(3);
    const [call] = fake.requests.filter((r) => r.path === "/v1/images/generations");
    expect(call.body).toEqual({ model: "gpt-image-1", prompt: "a red fox in the snow", n: 3, size: "1024x1536", quality: "medium" });
  });

  it("sends the reference picture inline as a multipart edit", async () => {
    const reference = makePng(64, 64, 90);
    const submitted = await openaiMediaProvider.submit(
      context(),
      picture({ model: "gpt-image-1", width: 1024, height: 1024, reference: { bytes: reference, mime: "image/png", width: 64, height: 64 } }),
    );
    expect(submitted.status?.state).toBe("succeeded");
    const [edit] = fake.requests.filter((r) => r.path === "/v1/images/edits");
    expect(String(edit.headers["content-type"])).toMatch(/^multipart\/form-data; boundary=/);
    expect(edit.body.fields).toMatchObject({ model: "gpt-image-1", prompt: "a red fox in the snow", n: "1", size: "1024x1024" });
    expect(edit.body.files.image.type).toBe("image/png");
    expect(edit.body.files.image.bytes.equals(reference)).toBe(true);
  });

  it("maps the model's refusal of a picture it cannot edit to bad_request", async () => {
    const reference = makePng(64, 32);
    const err = await refusalOf(
      openaiMediaProvider.submit(context(), picture({ model: "dall-e-2", reference: { bytes: reference, mime: "image/png", width: 64, height: 32 } })),
    );
    expect(err.failure).toBe("bad_request");
    expect(err.message).toContain("square");
  });

  it("maps a prompt past the model's length to bad_request", async () => {
    const err = await refusalOf(openaiMediaProvider.submit(context(), picture({ model: "dall-e-2", prompt: "x".repeat(1001) })));
    expect(err.failure).toBe("bad_request");
    expect(err.message).toContain("maximum length 1000");
  });

  it("returns the links of a server that answers links, and an expired one no longer opens", async () => {
    fake.behave({ linkResults: true });
    const fresh = await openaiMediaProvider.submit(context(), picture());
    const [freshOut] = fresh.status?.state === "succeeded" ? fresh.status.outputs : [];
    if (!freshOut || !("url" in freshOut)) throw new Error("expected a link");
    const opened = await fetch(freshOut.url);
    expect(opened.status).toBe(200);
    expect(imageSize(Buffer.from(await opened.arrayBuffer())).type).toBe("png");

    fake.behave({ linkResults: true, expiredLinks: true });
    const stale = await openaiMediaProvider.submit(context(), picture());
    const [staleOut] = stale.status?.state === "succeeded" ? stale.status.outputs : [];
    if (!staleOut || !("url" in staleOut)) throw new Error("expected a link");
    expect(staleOut.url).toContain("sig=");
    const refused = await fetch(staleOut.url);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("AuthenticationFailed");
  });

  it("answers only when OpenAI does: a held call keeps submit waiting", async () => {
    fake.behave({ hold: true });
    let settled = false;
    const pending = openaiMediaProvider.submit(context(), picture()).finally(() => (settled = true));
    const task = await waitUntil(() => [...fake.tasks.values()].find((t) => t.state === "running"));
    await new Promise((r) => setTimeout(r, 100));
    expect(settled).toBe(false);
    fake.finish(task.id);
    expect((await pending).status?.state).toBe("succeeded");
  });
});

describe("OpenAI speech", () => {
  it("hands back the MP3 bytes with the request's model, text and voice", async () => {
    const submitted = await openaiMediaProvider.submit(context(), speech());
    const [out] = submitted.status?.state === "succeeded" ? submitted.status.outputs : [];
    if (!out || !("bytes" in out)) throw new Error("expected bytes");
    expect(out.mime).toBe("audio/mpeg");
    expect(out.bytes.equals(SAMPLE_MP3)).toBe(true);
    const [call] = fake.requests.filter((r) => r.path === "/v1/audio/speech");
    expect(call.body).toEqual({ model: "tts-1", input: "你好，欢迎来到泽林。", voice: "nova", response_format: "mp3" });
  });

  it("hands back WAV when asked", async () => {
    const submitted = await openaiMediaProvider.submit(context(), speech({ format: "wav" }));
    const [out] = submitted.status?.state === "succeeded" ? submitted.status.outputs : [];
    if (!out || !("bytes" in out)) throw new Error("expected bytes");
    expect(out.mime).toBe("audio/wav");
    expect(out.bytes.toString("latin1", 0, 4)).toBe("RIFF");
    expect(out.bytes.toString("latin1", 8, 12)).toBe("WAVE");
  });

  it("maps an unknown voice to bad_request and an unknown model to bad_request", async () => {
    expect((await refusalOf(openaiMediaProvider.submit(context(), speech({ voice: "darth" })))).failure).toBe("bad_request");
    expect((await refusalOf(openaiMediaProvider.submit(context(), speech({ model: "tts-9" })))).failure).toBe("bad_request");
  });
});

describe("OpenAI refusals", () => {
  it("refuses a wrong key with OpenAI's answer, mapped to auth", async () => {
    const err = await refusalOf(openaiMediaProvider.submit(context({ secret: "sk-wrong-key-1234" }), picture()));
    expect(err.failure).toBe("auth");
    expect(err.message).toContain("Incorrect API key provided");
    const last = fake.requests.at(-1)!;
    expect(last.headers.authorization).toBe("Bearer sk-wrong-key-1234");
  });

  it("maps a content policy refusal of the prompt to content_input", async () => {
    fake.behave({ submitError: "content_input" });
    const err = await refusalOf(openaiMediaProvider.submit(context(), picture()));
    expect(err.failure).toBe("content_input");
    expect(err.message).toContain("safety system");
  });

  it("maps insufficient_quota to balance", async () => {
    fake.behave({ submitError: "balance" });
    expect((await refusalOf(openaiMediaProvider.submit(context(), speech()))).failure).toBe("balance");
  });

  it("maps a rate limit to rate_limited with the Retry-After it was given", async () => {
    fake.behave({ submitError: "rate_limited" });
    const err = await refusalOf(openaiMediaProvider.submit(context(), picture()));
    expect(err.failure).toBe("rate_limited");
    expect(err.retryAfterMs).toBe(20_000);
  });

  it("maps OpenAI's own failure and an unreachable server to upstream", async () => {
    fake.behave({ outcome: "failed" });
    expect((await refusalOf(openaiMediaProvider.submit(context(), picture()))).failure).toBe("upstream");
    fake.behave({});
    const err = await refusalOf(openaiMediaProvider.submit(context({ baseUrl: "http://127.0.0.1:9/v1" }), picture()));
    expect(err.failure).toBe("upstream");
  });

  it("refuses video, and has no task to poll since every call answered at once", async () => {
    const video = {
      kind: "video",
      model: "x",
      prompt: "",
      firstFrame: { bytes: makePng(8, 8), mime: "image/png", width: 8, height: 8 },
      cameraMotion: "none",
      duration: 5,
      mode: "std",
    } as const;
    expect((await refusalOf(openaiMediaProvider.submit(context(), video))).failure).toBe("bad_request");
    expect(await openaiMediaProvider.poll(context(), "openai-x", picture())).toMatchObject({ state: "failed", failure: "upstream" });
  });
});
