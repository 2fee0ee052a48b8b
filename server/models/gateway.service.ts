// The model gateway: one call for every chat completion. It orders the channels that
// serve a model, tries them until one answers, keeps the retry chain in ModelRequestLog, counts
// failures per channel and disables a channel that keeps failing or whose key was banned.
import crypto from "node:crypto";
import { AppError } from "../errors/app-error";
import { getEnv } from "../env";
import { logger } from "../lib/logger";
import { createRefreshingCache } from "../lib/refreshing-cache";
import { openSecret } from "../lib/secret-box";
import { keepChatChannels, orderCandidates } from "./channel-selection";
import * as repo from "./models.repository";
import { ZModelParameters, type TChatMessage, type TModelParameters } from "./models.schema";
import { estimateTokens } from "../lib/token-estimate";
import { offlineCompletion, streamOfflineReply } from "./offline-completion";
import type { TChunkSource } from "./chunk-source";
import { postChatCompletion, streamChatCompletion, UpstreamError, type TChatChunk, type TChatCompletion } from "./openai-compatible-client";

export type TAttempt = { channelId: string; status: number | null; error: string | null; ms: number };

export type TCompleteChatInput = {
  modelKey: string;
  messages: TChatMessage[];
  params?: TModelParameters;
  /** Extra OpenAI fields passed through as given (tools, tool_choice, response_format...). */
  extra?: Record<string, unknown>;
  accountId?: string | null;
  signal?: AbortSignal;
  requestId?: string;
  /** For tests: the order inside a priority tier. */
  random?: () => number;
  /**
   * Take the model and its enabled channels from this process's reading, at most ROUTING_CACHE_MS
   * old and refreshed in the background (the chat runtime's hot path). A channel disabled meanwhile
   * may get one more request; a failure is still retried elsewhere and a retry re-reads the
   * channel's state.
   */
  cachedRouting?: boolean;
  /** What the offline channel (no network, offline-completion.ts) says if it is the one chosen. */
  offlineReply?: string | null;
};

type TRouting = { model: Awaited<ReturnType<typeof repo.findModelByKey>>; channels: Awaited<ReturnType<typeof repo.listEnabledChannelsForModel>> };
const ROUTING_CACHE_MS = 1000;

async function readRouting(modelKey: string, accountId: string | null): Promise<TRouting> {
  // Both reads at once: the model's row and the channels that serve its key.
  const [model, channels] = await Promise.all([repo.findModelByKey(modelKey), repo.listEnabledChannelsForModel(modelKey, accountId)]);
  return { model, channels: model?.enabled ? keepChatChannels(channels) : [] };
}

const routingCache = createRefreshingCache<TRouting>({
  maxAgeMs: ROUTING_CACHE_MS,
  load: (cacheKey) => {
    const [modelKey, accountId] = cacheKey.split("\u0000");
    return readRouting(modelKey, accountId || null);
  },
});

/** Who has channels of their own: every other account shares its model's one reading. */
const ownersCache = createRefreshingCache<Set<string>>({ maxAgeMs: ROUTING_CACHE_MS, load: async () => new Set(await repo.listChannelOwnerIds()) });

/**
 * The model and the channels serving it for an account, as the chat's hot path reads them. Keyed by
 * the model alone unless the account has channels of its own, so an account's turn minutes after
 * its last finds the reading warm (kept warm by everyone's turns), not read afresh.
 */
export async function getCachedRouting(modelKey: string, accountId: string | null) {
  const own = accountId && (await ownersCache.get("")).has(accountId) ? accountId : "";
  return routingCache.get(`${modelKey}\u0000${own}`);
}

/** Tokens as the upstream reported them, or as estimated when it did not (estimated: true). */
export type TUsage = { promptTokens: number; completionTokens: number; estimated: boolean };
export type TChatStream = AsyncIterable<TChatChunk> & {
  /** Hands each chunk to `onChunk` as it arrives (false stops the stream); resolves when it ended. */
  pump: TChunkSource["pump"];
  requestId: string;
  channelId: string;
  /** Known once the stream ended (or was abandoned): what was generated so far. */
  readonly usage: TUsage | null;
};
export type TChatResult = { requestId: string; channelId: string; completion: TChatCompletion; usage: TUsage };
type TLogExtra = { usage?: TUsage | null; firstChunkMs?: number | null };

const checked = new WeakMap<object, TModelParameters>();

/** Parameters as the upstream may take them; a frozen set (an agent's, chat.service) is checked once. */
function checkedParams(params: unknown): TModelParameters {
  if (!params || typeof params !== "object" || !Object.isFrozen(params)) return ZModelParameters.parse(params ?? {});
  let ok = checked.get(params);
  if (!ok) checked.set(params, (ok = ZModelParameters.parse(params)));
  return ok;
}

export function completeChat(input: TCompleteChatInput & { stream: true }): Promise<TChatStream>;
export function completeChat(input: TCompleteChatInput & { stream?: false }): Promise<TChatResult>;
export async function completeChat(input: TCompleteChatInput & { stream?: boolean }): Promise<TChatStream | TChatResult> {
  const env = getEnv();
  const t0 = performance.now();
  const requestId = input.requestId ?? crypto.randomUUID();
  const accountId = input.accountId ?? null;
  // The explicit flag decides; a stored parameter set must not turn a JSON call into a stream.
  const { stream: _ignored, ...params } = checkedParams(input.params);
  const { model, channels } = await (input.cachedRouting ? getCachedRouting(input.modelKey, accountId) : readRouting(input.modelKey, accountId));
  // An account's own keys ("private key service") come before the platform's channels.
  const own = orderCandidates(
    channels.filter((c) => c.ownerAccountId),
    input.random,
  );
  const candidates = [
    ...own,
    ...orderCandidates(
      channels.filter((c) => !c.ownerAccountId),
      input.random,
    ),
  ];
  if (!model || candidates.length === 0) {
    await writeLog({ requestId, modelKey: input.modelKey, accountId, attempts: [], finalChannelId: null, ok: false });
    throw new AppError("model_unavailable", { params: { model: input.modelKey } });
  }

  // Callers of streams ask for the usage chunk (extra.stream_options); without it usage is estimated.
  const body = { ...input.extra, ...params, model: model.upstreamModel, messages: input.messages };
  const attempts: TAttempt[] = [];
  const finish = (ok: boolean, finalChannelId: string | null, extra: TLogExtra = {}) =>
    writeLog({
      requestId,
      modelKey: model.key,
      accountId,
      attempts,
      finalChannelId,
      ok,
      promptTokens: extra.usage?.promptTokens ?? null,
      completionTokens: extra.usage?.completionTokens ?? null,
      firstChunkMs: extra.firstChunkMs ?? null,
      totalMs: Math.round(performance.now() - t0),
    });
  let lastError: UpstreamError | undefined;

  for (const channel of candidates) {
    // A channel disabled by a concurrent request (or an admin) since we listed is skipped.
    if (attempts.length > 0 && (await repo.findChannelById(channel.id))?.state !== "enabled") continue;
    // An account's own base URL is the account's choice: it must not reach into our network.
    // The offline channel has no key to open (and must keep working if APP_SECRET ever changes).
    const offline = channel.type === "offline";
    const upstream = { baseUrl: channel.baseUrl, apiKey: offline ? "" : openChannelKey(channel.keyEncrypted), guarded: Boolean(channel.ownerAccountId) };
    const options = { signal: input.signal, connectTimeoutMs: env.MODEL_CONNECT_TIMEOUT_MS };
    const started = Date.now();
    try {
      if (!input.stream) {
        const completion = offline ? offlineCompletion(input.offlineReply) : await postChatCompletion(upstream, body, options);
        attempts.push({ channelId: channel.id, status: 200, error: null, ms: Date.now() - started });
        const usage = usageOfCompletion(completion, input.messages);
        await finish(true, channel.id, { usage });
        return { requestId, channelId: channel.id, completion, usage };
      }
      const iterator = offline ? streamOfflineReply(input.offlineReply) : await streamChatCompletion(upstream, body, options);
      // Retrying is only safe until the first chunk: after it, a retry would repeat the output.
      const first = await iterator.next();
      const firstChunkMs = Math.round(performance.now() - t0);
      attempts.push({ channelId: channel.id, status: 200, error: null, ms: Date.now() - started });
      const meter = createUsageMeter(input.messages);
      const relay = relayStream(first, iterator, channel.id, meter, (ok, id) => finish(ok, id, { usage: meter.usage(), firstChunkMs }));
      // A getter (Object.assign would copy one reading): usage grows as the stream is read.
      return Object.defineProperties(Object.assign(relay, { requestId, channelId: channel.id }), {
        usage: { get: () => meter.usage(), enumerable: true },
      }) as unknown as TChatStream;
    } catch (err) {
      const failure = err instanceof UpstreamError ? err : new UpstreamError("connect", (err as Error)?.message ?? String(err), null, null, { cause: err });
      attempts.push({ channelId: channel.id, status: failure.status, error: describe(failure), ms: Date.now() - started });
      if (failure.kind === "aborted") {
        await finish(false, null);
        throw err;
      }
      lastError = failure;
      if (failure.keyBanned) {
        await recordFailure(channel.id, failure, "key_banned");
        continue;
      }
      if (!failure.retryable) {
        // The request itself was refused (bad parameters): another channel would refuse it too.
        await finish(false, channel.id);
        throw new AppError("system_busy", { cause: failure, data: { request_id: requestId } });
      }
      await recordFailure(channel.id, failure);
    }
  }
  await finish(false, null);
  const allBanned = attempts.length > 0 && attempts.every((a) => a.status === 401 || a.error?.startsWith("key_banned"));
  throw new AppError(allBanned ? "key_banned" : "system_busy", { cause: lastError, data: { request_id: requestId } });
}

// Channel keys opened in this process, by their sealed form: a new key is a new entry. Opening one
// (an AES-GCM decipher) cost a cold chat turn a tenth of a millisecond before its request left.
const openedKeys = new Map<string, string>();
const OPENED_KEYS_MAX = 1000;

function openChannelKey(sealed: string) {
  let key = openedKeys.get(sealed);
  if (key === undefined) {
    key = openSecret(sealed);
    if (openedKeys.size >= OPENED_KEYS_MAX) openedKeys.delete(openedKeys.keys().next().value!);
    openedKeys.set(sealed, key);
  }
  return key;
}

/**
 * Hands the chunks on; a failure mid-stream surfaces to the caller and is never retried. A plain
 * iterator rather than an async generator: one await per chunk instead of a generator's queue.
 */
function relayStream(
  first: IteratorResult<TChatChunk>,
  iterator: AsyncIterator<TChatChunk> & { return(): Promise<IteratorResult<TChatChunk>>; pump?: TChunkSource["pump"] },
  channelId: string,
  meter: TUsageMeter,
  finish: (ok: boolean, channelId: string | null) => Promise<void>,
): AsyncIterableIterator<TChatChunk> & Pick<TChunkSource, "pump"> {
  let head: TChatChunk | null = first.done ? null : first.value;
  let over = false;
  const done = { done: true, value: undefined } as IteratorReturnResult<undefined>;
  // Once: a stream that ended (ok), failed, or was left by its consumer (closing the upstream
  // iterator cancels the request).
  const end = async (ok: boolean) => {
    if (over) return;
    over = true;
    if (!ok) await iterator.return(undefined).catch(() => undefined);
    await finish(ok, channelId);
  };
  // A failure mid-stream: a channel's fault is recorded against it, and the caller reads "busy".
  const fail = async (err: unknown) => {
    const failure = err instanceof UpstreamError && err.kind !== "aborted" ? err : null;
    if (failure) await recordFailure(channelId, failure);
    await end(false);
    return failure ? new AppError("system_busy", { cause: failure }) : err;
  };
  const relay: AsyncIterableIterator<TChatChunk> & Pick<TChunkSource, "pump"> = {
    [Symbol.asyncIterator]: () => relay,
    async next() {
      if (over) return done;
      if (head) {
        const chunk = head;
        head = null;
        meter.add(chunk);
        return { done: false, value: chunk };
      }
      if (first.done) {
        await end(true);
        return done;
      }
      let read: IteratorResult<TChatChunk>;
      try {
        read = await iterator.next();
      } catch (err) {
        throw await fail(err);
      }
      if (read.done) {
        await end(true);
        return done;
      }
      meter.add(read.value);
      return read;
    },
    // Every chunk to `onChunk` as it arrives (the upstream's own pump when it has one); false stops.
    async pump(onChunk) {
      if (over) return;
      let stopped = false;
      const take = (chunk: TChatChunk) => {
        meter.add(chunk);
        if (onChunk(chunk) === false) stopped = true;
        return !stopped;
      };
      if (head) {
        const chunk = head;
        head = null;
        if (!take(chunk)) return end(false);
      }
      if (first.done) return end(true);
      try {
        if (iterator.pump) await iterator.pump(take);
        else for (let read = await iterator.next(); !read.done && take(read.value); read = await iterator.next());
      } catch (err) {
        throw await fail(err);
      }
      await end(!stopped);
    },
    async return() {
      await end(false);
      return done;
    },
    async throw(err: unknown) {
      await end(false);
      throw err;
    },
  };
  return relay;
}

type TUsageMeter = ReturnType<typeof createUsageMeter>;

/** Follows a stream: the upstream's usage chunk when it sends one, else an estimate of what went by. */
function createUsageMeter(messages: TChatMessage[]) {
  let reported: { prompt_tokens?: number; completion_tokens?: number } | null = null;
  let generated = "";
  return {
    add(chunk: TChatChunk) {
      const usage = chunk.usage as typeof reported;
      if (usage && typeof usage === "object") reported = usage;
      const delta = chunk.choices?.[0]?.delta as
        { content?: unknown; reasoning_content?: unknown; tool_calls?: Array<{ function?: { name?: string; arguments?: string } }> } | undefined;
      if (!delta) return;
      if (typeof delta.content === "string") generated += delta.content;
      if (typeof delta.reasoning_content === "string") generated += delta.reasoning_content;
      for (const call of delta.tool_calls ?? []) generated += (call.function?.name ?? "") + (call.function?.arguments ?? "");
    },
    usage(): TUsage {
      if (reported && Number.isFinite(reported.prompt_tokens) && Number.isFinite(reported.completion_tokens)) {
        return { promptTokens: reported.prompt_tokens!, completionTokens: reported.completion_tokens!, estimated: false };
      }
      return { promptTokens: estimatePromptTokens(messages), completionTokens: estimateTokens(generated), estimated: true };
    },
  };
}

function usageOfCompletion(completion: TChatCompletion, messages: TChatMessage[]): TUsage {
  const u = completion.usage as { prompt_tokens?: number; completion_tokens?: number } | undefined;
  if (u && Number.isFinite(u.prompt_tokens) && Number.isFinite(u.completion_tokens))
    return { promptTokens: u.prompt_tokens!, completionTokens: u.completion_tokens!, estimated: false };
  const message = (completion.choices?.[0] as { message?: { content?: unknown } } | undefined)?.message;
  return {
    promptTokens: estimatePromptTokens(messages),
    completionTokens: estimateTokens(typeof message?.content === "string" ? message.content : ""),
    estimated: true,
  };
}

/** About four tokens of framing per message, plus the text (and tool calls) it carries. */
function estimatePromptTokens(messages: TChatMessage[]) {
  let total = 0;
  for (const m of messages)
    total +=
      4 +
      estimateTokens(typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "")) +
      (m.tool_calls ? estimateTokens(JSON.stringify(m.tool_calls)) : 0);
  return total;
}

function describe(err: UpstreamError) {
  if (err.keyBanned) return `key_banned: ${err.message}`;
  return err.kind === "http" ? `http_${err.status}: ${err.message}` : `${err.kind}: ${err.message}`;
}

/**
 * Counts a failure against a channel. A banned key disables the channel at once; anything else
 * only once the channel failed CHANNEL_FAILURE_THRESHOLD times inside CHANNEL_FAILURE_WINDOW_MS,
 * so one blip does not take a good key out of rotation.
 */
async function recordFailure(channelId: string, err: UpstreamError, forcedReason?: "key_banned") {
  const env = getEnv();
  const reason = describe(err).slice(0, 300);
  try {
    await repo.insertChannelFailure({ channelId, reason, status: err.status });
    if (forcedReason) {
      if (await repo.setChannelState(channelId, "disabled_auto", forcedReason, { onlyIfEnabled: true }))
        logger.warn({ channelId, reason }, "channel disabled: key banned");
      return;
    }
    const since = new Date(Date.now() - env.CHANNEL_FAILURE_WINDOW_MS);
    const count = await repo.countChannelFailuresSince(channelId, since);
    if (count >= env.CHANNEL_FAILURE_THRESHOLD) {
      const why = `${count} failures in ${Math.round(env.CHANNEL_FAILURE_WINDOW_MS / 1000)}s; last: ${reason}`.slice(0, 500);
      if (await repo.setChannelState(channelId, "disabled_auto", why, { onlyIfEnabled: true }))
        logger.warn({ channelId, reason: why }, "channel disabled automatically");
    }
  } catch (dbErr) {
    // Bookkeeping must not turn an upstream failure into a different error for the caller.
    logger.error({ err: dbErr, channelId }, "could not record a channel failure");
  }
}

type TLogRow = {
  requestId: string;
  modelKey: string;
  accountId: string | null;
  attempts: TAttempt[];
  finalChannelId: string | null;
  ok: boolean;
  promptTokens?: number | null;
  completionTokens?: number | null;
  firstChunkMs?: number | null;
  totalMs?: number | null;
};

async function writeLog(data: TLogRow) {
  try {
    await repo.insertModelRequestLog(data);
  } catch (err) {
    logger.error({ err, requestId: data.requestId }, "could not write the model request log");
  }
}
