// Calling a provider adapter straight at its loopback fake: the context a channel would give it,
// polling a task to its end, the ProviderError a refused call throws, and the failures every
// lip-sync provider must read into ours (switched on in the fake).
import crypto from "node:crypto";
import { expect } from "vitest";
import {
  ProviderError,
  type TMediaProvider,
  type TMediaRequest,
  type TProviderContext,
  type TProviderFailure,
  type TProviderStatus,
} from "../../server/media/providers/provider";

/** A job id shaped as the job table makes them: some providers derive names from it. */
export const newJobId = () => `mj${crypto.randomUUID().replaceAll("-", "").slice(0, 22)}`;

/**
 * Contexts for calls to a fake under a fresh job id each; `channel` is read at each call, since
 * the fake starts in beforeAll, after the builder is made.
 */
export function contextsFor(channel: () => { baseUrl: string; secret: string }) {
  return (over: Partial<TProviderContext> = {}): TProviderContext => ({
    ...channel(),
    fetch: (url, init) => fetch(url, init),
    jobId: newJobId(),
    ...over,
  });
}

/** Polls until the task leaves queued/running, keeping every status seen. */
export async function pollToEnd(provider: TMediaProvider, ctx: TProviderContext, taskId: string, req: TMediaRequest) {
  const seen: TProviderStatus[] = [];
  for (let i = 0; i < 20; i++) {
    const status = await provider.poll(ctx, taskId, req);
    seen.push(status);
    if (status.state !== "queued" && status.state !== "running") return { final: status, seen };
  }
  throw new Error("the task never finished");
}

/** The ProviderError the call was refused with (failing the test when it was not refused). */
export async function refusalOf(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

/**
 * A lip-sync fake: each has the switches `submitError` (a refused submission), `outcome` (a task
 * that fails late) and `expiredLinks`, in its own provider's words.
 */
type TFailingFake<B> = { behave(b: B): void };
type TContexts = (over?: Partial<TProviderContext>) => TProviderContext;

/** Each [fake's refusal, our failure] pair: the fake refuses the submission so, the adapter throws ours. */
export async function expectSubmitRefusals<B>(
  provider: TMediaProvider,
  fake: TFailingFake<B>,
  ctxFor: TContexts,
  req: TMediaRequest,
  pairs: [string, TProviderFailure][],
) {
  for (const [submitError, failure] of pairs) {
    fake.behave({ submitError } as B);
    expect((await refusalOf(provider.submit(ctxFor(), req))).failure, submitError).toBe(failure);
  }
}

/** A task failing late (no face found, too long, the provider's own fault) ends in our three failures, its state named `providerState`. */
export async function expectLateFailures<B>(provider: TMediaProvider, fake: TFailingFake<B>, ctxFor: TContexts, req: TMediaRequest, providerState: string) {
  for (const [outcome, failure] of [
    ["no_face", "no_face"],
    ["too_long", "too_long"],
    ["failed", "upstream"],
  ] as const) {
    fake.behave({ outcome } as B);
    const ctx = ctxFor();
    const { taskId } = await provider.submit(ctx, req);
    expect((await pollToEnd(provider, ctx, taskId, req)).final).toMatchObject({ state: "failed", failure, providerState });
  }
}

/** The HTTP status a finished task's result link answers once the fake has let it expire. */
export async function expiredLinkStatus<B>(provider: TMediaProvider, fake: TFailingFake<B>, ctxFor: TContexts, req: TMediaRequest) {
  fake.behave({ expiredLinks: true } as B);
  const ctx = ctxFor();
  const { taskId } = await provider.submit(ctx, req);
  const { final } = await pollToEnd(provider, ctx, taskId, req);
  if (final.state !== "succeeded" || !("url" in final.outputs[0])) throw new Error("expected a link");
  return (await fetch(final.outputs[0].url)).status;
}
