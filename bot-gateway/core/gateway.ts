// One bot gateway instance: it takes bots nobody holds (a lease per bot,
// docs/decisions/0010-bots-leases-packages-and-sends.md), connects each through its channel, renews
// its leases, and lets go of a bot whose lease it lost (another instance took it, or the owner
// changed it). When an instance dies its leases run out and the others take its bots at their next
// scan: within lease + scan time (35 s by default). It also fires the scheduled messages of the
// bots it holds, and answers the messages webhook platforms sent to the web process (the `bots`
// queue).
import crypto from "node:crypto";
import os from "node:os";
import type { Job, Worker } from "bullmq";
import { getEnv } from "../../server/env";
import { createWorker } from "../../server/jobs/queue";
import { logger } from "../../server/lib/logger";
import { botsQueueName, readQueuedMessage } from "../../server/bots/inbound-queue";
import { CredentialsUnreadableError } from "../../server/bots/bot-credentials";
import {
  claimFreeBots,
  expireLapsedBots,
  insertEvent,
  loadGatewayBot,
  releaseLeases,
  renewLeases,
  wasSeen,
  writeHealth,
  type TGatewayBot,
} from "../../server/bots/gateway.service";
import { RELOGIN_DETAIL, type TBotChannel } from "../../server/bots/bots.schema";
import { wireTurnDependencies } from "../../server/wiring/turn-dependencies";
import { CHANNEL_FACTORIES } from "../channels/index";
import type { Channel, TChannelFactory, TChannelHealth, TGreetingTrigger } from "./channel";
import { dispatchGreeting, dispatchInbound } from "./dispatcher";
import { fireDueSchedules } from "./scheduler";

export type TGatewayOptions = {
  instanceId?: string;
  factories?: Partial<Record<TBotChannel, TChannelFactory>>;
  leaseMs?: number;
  scanMs?: number;
  tickMs?: number;
  /** At most this many bots per instance. */
  maxBots?: number;
  /** Bots taken per scan: small, so instances started together share the bots. */
  claimPerScan?: number;
  /** Consume the `bots` queue (webhook platforms' messages); on by default. */
  consumeQueue?: boolean;
  /** Take only the bots of these owners (tests sharing one database); every bot when left out. */
  ownerScope?: () => string[];
};

type THeld = { bot: TGatewayBot; channel: Channel; attempt: number; retry: NodeJS.Timeout | null; connected: boolean; state: TChannelHealth["state"] };

/**
 * Whether scheduled messages can go out through the bot now. Webhook platforms send through their
 * API from the moment the credentials are accepted (before the platform's first callback); personal
 * WeChat needs its login. An occurrence due while a bot cannot send waits, and goes out once, late.
 */
const canSend = (h: THeld) => h.connected && (h.state === "online" || (h.state === "to_be_associated" && h.bot.channel !== "wechat"));

export type TGateway = {
  readonly instanceId: string;
  /** The bots this instance holds now. */
  held(): string[];
  /** One scan now (tests): expire, renew, take. */
  scan(): Promise<void>;
  /** Fire due scheduled messages now (tests). */
  tick(): Promise<void>;
  stop(): Promise<void>;
};

const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 300_000;

export async function startGateway(opts: TGatewayOptions = {}): Promise<TGateway> {
  // Bots answer with their agents' turns, run in this process.
  wireTurnDependencies();
  const env = getEnv();
  const instanceId = opts.instanceId ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`;
  const factories = opts.factories ?? CHANNEL_FACTORIES;
  const leaseMs = opts.leaseMs ?? env.BOT_LEASE_MS;
  const scanMs = opts.scanMs ?? env.BOT_SCAN_MS;
  const tickMs = opts.tickMs ?? env.BOT_TICK_MS;
  const maxBots = opts.maxBots ?? 500;
  const claimPerScan = opts.claimPerScan ?? 5;
  const channels = Object.keys(factories) as TBotChannel[];
  const held = new Map<string, THeld>();
  // Bots this instance holds but cannot run: their credentials do not open under this APP_SECRET
  // (the secret was changed, or the row came from another installation). Held so no instance
  // churns on them; let go with the lease when the owner saves new credentials.
  const parked = new Set<string>();
  let stopped = false;
  let scanning: Promise<void> | null = null;
  let ticking: Promise<void> | null = null;

  const drop = async (botId: string, why: string) => {
    const h = held.get(botId);
    if (!h) return;
    held.delete(botId);
    if (h.retry) clearTimeout(h.retry);
    logger.info({ botId, why, instanceId }, "bot gateway: letting go of a bot");
    await h.channel.disconnect().catch((err) => logger.warn({ err, botId }, "bot gateway: disconnect failed"));
  };

  const onHealth = async (botId: string, reported: TChannelHealth) => {
    // A webhook bot the platform has already called stays online when an instance takes it afresh.
    const health = reported.detail === "detail.waiting_callback" && (await wasSeen(botId)) ? { state: "online" as const } : reported;
    const before = await writeHealth(botId, instanceId, {
      state: health.state,
      detail: health.detail ?? null,
      loginQr: health.loginQr,
      loginName: health.loginName,
    });
    if (before === null || before === health.state) return;
    // The owner is told what needs them: a lapsed login, or a bot gone offline. Connecting, waiting
    // for a scan and coming online are seen on the bot's page, not sent as notices.
    if (health.state === "offline" && health.detail === "detail.login_lapsed") await insertEvent(botId, "login_lapsed", {});
    else if (health.state === "offline") await insertEvent(botId, "state_changed", { state: health.state, detail: health.detail ?? null });
  };

  const connect = (h: THeld) => {
    const botId = h.bot.id;
    h.channel
      .connect({
        onMessage: async (msg) => {
          const bot = await loadGatewayBot(botId);
          if (!bot || held.get(botId) !== h) return;
          await dispatchInbound(bot, h.channel, msg).catch((err) => logger.error({ err, botId }, "bot gateway: message not handled"));
        },
        onGreeting: async (trigger) => {
          const bot = await loadGatewayBot(botId);
          if (!bot || held.get(botId) !== h) return;
          await dispatchGreeting(bot, h.channel, trigger, instanceId).catch((err) => logger.error({ err, botId }, "bot gateway: greeting not handled"));
        },
        onHealth: (health) => {
          if (held.get(botId) !== h) return;
          h.state = health.state;
          void onHealth(botId, health).catch((err) => logger.warn({ err, botId }, "bot gateway: state not written"));
        },
      })
      .then(
        () => {
          h.attempt = 0;
          h.connected = true;
        },
        async (err: Error) => {
          if (held.get(botId) !== h) return;
          h.connected = false;
          // Refused credentials (or a platform that is down): offline with the reason, tried again later.
          const message = String(err?.message ?? err).slice(0, 200);
          logger.warn({ err, botId }, "bot gateway: connection refused");
          const before = await writeHealth(botId, instanceId, { state: "offline", detail: "detail.credentials_refused" }).catch(() => null);
          if (before !== null && before !== "offline") await insertEvent(botId, "credentials_refused", { error: message });
          const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** h.attempt++);
          h.retry = setTimeout(() => {
            h.retry = null;
            if (held.get(botId) === h && !stopped) connect(h);
          }, delay);
          h.retry.unref();
        },
      );
  };

  const park = async (botId: string, err: unknown) => {
    parked.add(botId);
    logger.warn({ err, botId, instanceId }, "bot gateway: credentials cannot be opened");
    const before = await writeHealth(botId, instanceId, { state: "offline", detail: "detail.credentials_unreadable" });
    if (before !== null && before !== "offline") await insertEvent(botId, "state_changed", { state: "offline", detail: "detail.credentials_unreadable" });
  };

  const take = async (botId: string) => {
    let bot: TGatewayBot | null;
    try {
      bot = await loadGatewayBot(botId);
    } catch (err) {
      if (err instanceof CredentialsUnreadableError) return park(botId, err);
      throw err;
    }
    const factory = bot ? factories[bot.channel] : undefined;
    if (!bot || !factory) {
      await releaseLeases(instanceId, [botId]);
      return;
    }
    const channel = factory({ botId, name: bot.name, credentials: bot.credentials, freshLogin: bot.stateDetail === RELOGIN_DETAIL });
    const h: THeld = { bot, channel, attempt: 0, retry: null, connected: false, state: "deploying" };
    held.set(botId, h);
    logger.info({ botId, channel: bot.channel, instanceId }, "bot gateway: took a bot");
    await onHealth(botId, { state: "deploying", detail: "detail.connecting" });
    connect(h);
  };

  const scanOnce = async () => {
    for (const id of await expireLapsedBots()) {
      await insertEvent(id, "package_expired", {});
      await drop(id, "package expired");
    }
    const ids = [...held.keys(), ...parked];
    const kept = new Set(await renewLeases(instanceId, ids, leaseMs));
    for (const id of ids) {
      if (kept.has(id)) continue;
      parked.delete(id);
      await drop(id, "lease lost");
    }
    if (stopped) return;
    const room = Math.min(claimPerScan, maxBots - held.size - parked.size);
    // One bot that cannot be taken must not strand the others claimed with it.
    for (const id of await claimFreeBots(instanceId, leaseMs, room, channels, opts.ownerScope?.())) {
      await take(id).catch(async (err) => {
        logger.warn({ err, botId: id, instanceId }, "bot gateway: could not take a bot");
        await drop(id, "take failed");
        await releaseLeases(instanceId, [id]).catch(() => undefined);
      });
    }
  };

  const scan = () => {
    scanning ??= scanOnce()
      .catch((err) => logger.warn({ err, instanceId }, "bot gateway: scan failed"))
      .finally(() => {
        scanning = null;
      });
    return scanning;
  };

  const tick = () => {
    const up = new Map([...held].filter(([, h]) => canSend(h)).map(([id, h]) => [id, h.channel] as const));
    ticking ??= fireDueSchedules(up, instanceId)
      .then(() => undefined)
      .catch((err) => logger.warn({ err, instanceId }, "bot gateway: schedules failed"))
      .finally(() => {
        ticking = null;
      });
    return ticking;
  };

  // Messages a webhook platform sent to the web process: answered by whichever instance takes the
  // job, through the holder's channel when it is here, else a channel built from the credentials.
  let worker: Worker | null = null;
  if (opts.consumeQueue !== false) {
    worker = createWorker(
      botsQueueName(),
      async (job: Job) => {
        const data = job.data as { botId: string; message?: Record<string, unknown>; trigger?: Record<string, unknown> };
        const bot = await loadGatewayBot(data.botId);
        if (!bot) return;
        const factory = factories[bot.channel];
        if (!factory) throw new Error(`no channel for ${bot.channel}`);
        const channel = held.get(bot.id)?.channel ?? factory({ botId: bot.id, name: bot.name, credentials: bot.credentials });
        if (job.name === "bots.inbound" && data.message) await dispatchInbound(bot, channel, readQueuedMessage(data.message));
        if (job.name === "bots.greeting" && data.trigger) await dispatchGreeting(bot, channel, data.trigger as unknown as TGreetingTrigger, instanceId);
      },
      { concurrency: 8 },
    );
    worker.on("failed", (job, err) => logger.warn({ job: job?.name, err }, "bot gateway: queued message failed"));
  }

  await scan();
  const scanTimer = setInterval(() => void scan(), scanMs);
  const tickTimer = setInterval(() => void tick(), tickMs);
  scanTimer.unref();
  tickTimer.unref();

  return {
    instanceId,
    held: () => [...held.keys()],
    scan,
    tick,
    async stop() {
      stopped = true;
      clearInterval(scanTimer);
      clearInterval(tickTimer);
      await scanning;
      await ticking;
      await worker?.close();
      const ids = [...held.keys(), ...parked];
      parked.clear();
      await Promise.all(ids.map((id) => drop(id, "stopping")));
      await releaseLeases(instanceId, ids).catch((err) => logger.warn({ err }, "bot gateway: leases not released"));
    },
  };
}
