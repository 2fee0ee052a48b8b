// Personal WeChat through wechaty: the puppet the settings name logs in as the owner's
// WeChat account once they scan the QR code the console shows. One wechaty instance per bot.
// The console learns everything through hooks.onHealth: a QR to scan (a new one replaces the old),
// logged in, logged out (the core tells the owner), and the puppet dying (restarted with backoff).
// Replies are plain text (WeChat shows markdown as typed), at most 2000 characters a message;
// generated pictures and videos go as WeChat's own picture and video messages.
import { FileBox } from "file-box";
import type { Contact, Friendship, Message, Room, Wechaty } from "wechaty";
import { ScanStatus, types } from "wechaty";
import { logger } from "../../server/lib/logger";
import type { TTurnMedia } from "../../server/turns/sink";
import type { Channel, TChannelFactory, TChannelHealth, TChannelHooks, TChannelSpec, TInboundMessage, TOutbound, TTarget } from "../core/channel";
import { markdownToPlain, splitForChannel } from "../core/format";
import { mediaLink, readReplyFile } from "../core/reply-media";
import { backoffDelay } from "./wechat/backoff";
import { buildWechaty, forgetSession, stopWechaty } from "./wechat/build-wechaty";
import { friendGreeting, roomJoinGreeting, toInbound } from "./wechat/inbound";

export const WECHAT_MAX_CHARS = 2000;
/** What the bot sends as a picture or a video (WeChat takes files up to 25 MB; pictures it shows inline). */
const MEDIA_MAX_BYTES = 20 * 1024 * 1024;
const MEDIA_MIMES = ["image/png", "image/jpeg", "image/gif", "video/mp4"] as const;
/** How long a puppet that stopped on its own may take to start again before we start a new one. */
const PUPPET_GRACE_MS = 1_000;
const ERROR_LOG_EVERY_MS = 30_000;

/** `freshLogin`: forget any saved WeChat session before connecting (the owner asked for a new QR). */
export type TWechatChannelSpec = TChannelSpec & { freshLogin?: boolean };

export type TWechatChannel = Channel & {
  /** Logs the account out and starts over with no saved session: a new QR code to scan. */
  relogin(): Promise<void>;
};

export const createWechatChannel: TChannelFactory = (spec: TWechatChannelSpec) => new WechatChannel(spec);

class WechatChannel implements TWechatChannel {
  readonly kind = "wechat" as const;
  private hooks?: TChannelHooks;
  /** The running instance; events from an older one (stopped, replaced) are ignored. */
  private bot?: Wechaty;
  private release?: () => void;
  private current: TChannelHealth = { state: "deploying", detail: "detail.connecting" };
  private closed = false;
  private failures = 0;
  private restartTimer?: NodeJS.Timeout;
  private errorLog = { at: 0, suppressed: 0 };
  private readonly log;

  constructor(private readonly spec: TWechatChannelSpec) {
    this.log = logger.child({ botId: spec.botId, channel: "wechat" });
  }

  /** Resolves once the puppet has started (a QR or a login follows as events); never for credentials. */
  async connect(hooks: TChannelHooks): Promise<void> {
    this.hooks = hooks;
    this.closed = false;
    if (this.spec.freshLogin) await forgetSession(this.spec.botId);
    await this.launch();
  }

  async reply(to: TInboundMessage, out: TOutbound): Promise<void> {
    await this.say(to.conversation, out);
  }

  async send(target: TTarget, out: TOutbound): Promise<void> {
    await this.say(target, out);
  }

  health(): TChannelHealth {
    return { ...this.current };
  }

  /** Stops wechaty; the WeChat login is kept for the bot's next start (a lease moving, a restart). */
  async disconnect(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    await this.teardown();
  }

  async relogin(): Promise<void> {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const old = this.bot;
    this.bot = undefined; // its logout is asked for, not a lapse: nobody is told
    if (old?.isLoggedIn) await old.logout().catch((err: unknown) => this.log.warn({ err }, "wechat logout failed"));
    await this.stopInstance(old, { keepSession: false });
    await forgetSession(this.spec.botId);
    if (!this.closed) await this.launch();
  }

  private async say(target: TTarget, out: TOutbound): Promise<void> {
    const bot = this.bot;
    if (!bot?.isLoggedIn) throw new Error("wechat: the bot is not logged in");
    const where = target.kind === "group" ? await bot.Room.find({ id: target.id }) : await bot.Contact.find({ id: target.id });
    if (!where) throw new Error(`wechat: no ${target.kind} ${target.id}`);
    for (const piece of splitForChannel(markdownToPlain(out.text), { maxChars: WECHAT_MAX_CHARS })) await where.say(piece);
    for (const [i, item] of (out.media ?? []).entries()) await this.sayMedia(where, item, i);
  }

  /** A picture or video as WeChat's own message; its link as text when it cannot go as one. */
  private async sayMedia(where: Contact | Room, item: TTurnMedia, index: number): Promise<void> {
    const file = await readReplyFile(item, { maxBytes: MEDIA_MAX_BYTES, mimes: MEDIA_MIMES });
    if (file) {
      try {
        // A base64 box, not a buffer one: puppets that run elsewhere (wechaty-puppet-service, the
        // mock) take the box as JSON, which only base64, URL and QR boxes can become.
        await where.say(FileBox.fromBase64(file.bytes.toString("base64"), file.filename));
        return;
      } catch (err) {
        this.log.warn({ err }, "wechat: a picture or video was not sent; sending its link");
      }
    }
    await where.say(markdownToPlain(mediaLink(item, index)));
  }

  private async launch(): Promise<void> {
    let bot: Wechaty | undefined;
    try {
      const built = await buildWechaty(this.spec.botId);
      if (this.closed) return built.release(); // disconnected meanwhile: never started
      bot = built.bot;
      this.bot = bot;
      this.release = built.release;
      this.listen(bot);
      await bot.start(); // never bot.ready(): the mock puppet does not report ready
    } catch (err) {
      this.log.warn({ err }, "wechaty failed to start");
    }
    if (this.closed || !bot || this.bot !== bot) return;
    const puppet = puppetOf(bot);
    if (!puppet || puppet.state.active() !== true) return this.died("the puppet did not start");
    puppet.on("stop", () => {
      if (this.bot !== bot || this.closed) return;
      // The puppet's watchdog resets it by stopping and starting it: give that a moment.
      setTimeout(() => {
        if (this.bot === bot && !this.closed && puppet.state.inactive() === true) this.died("the puppet stopped");
      }, PUPPET_GRACE_MS).unref();
    });
  }

  /** The puppet is gone (or cannot reach WeChat): report it, stop it, start anew after the backoff delay. */
  private died(reason: string): void {
    if (this.closed || this.restartTimer) return;
    const delay = backoffDelay(this.failures++);
    this.log.warn({ reason, delayMs: delay }, "wechat connection lost, restarting");
    this.setHealth({ state: "offline", detail: "detail.reconnecting", loginQr: null });
    const stopped = this.teardown();
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void stopped.then(() => (this.closed ? undefined : this.launch()));
    }, delay);
  }

  private async teardown(): Promise<void> {
    const bot = this.bot;
    this.bot = undefined;
    await this.stopInstance(bot, { keepSession: true });
  }

  private async stopInstance(bot: Wechaty | undefined, opts: { keepSession: boolean }): Promise<void> {
    const release = this.release;
    this.release = undefined;
    if (bot) await stopWechaty(bot, opts).catch((err: unknown) => this.log.warn({ err }, "wechaty stop failed"));
    release?.();
  }

  /** A puppet that cannot reach WeChat reports errors many times a second: one line per 30 s. */
  private logError(err: Error): void {
    const now = Date.now();
    if (now - this.errorLog.at < ERROR_LOG_EVERY_MS) {
      this.errorLog.suppressed++;
      return;
    }
    this.log.warn({ err: err?.message ?? String(err), suppressed: this.errorLog.suppressed }, "wechaty error");
    this.errorLog = { at: now, suppressed: 0 };
  }

  private setHealth(next: TChannelHealth): void {
    const merged = { ...this.current, ...next };
    if (JSON.stringify(merged) === JSON.stringify(this.current)) return;
    this.current = merged;
    this.hooks?.onHealth({ ...next });
  }

  private listen(bot: Wechaty): void {
    const mine = () => this.bot === bot && !this.closed;
    const guard = (what: string, fn: () => Promise<void>) => fn().catch((err: unknown) => this.log.warn({ err }, `wechat ${what} failed`));

    // Whether this instance has reached WeChat (a QR or a login). Errors before that mean WeChat
    // cannot be reached: wechat4u would retry at once, again and again; we restart with backoff.
    let reached = false;
    bot.on("error", (err: Error) => {
      if (!mine()) return;
      this.logError(err);
      if (!reached) this.died(`before a QR or a login: ${err?.message ?? err}`);
    });
    bot.on("scan", (qrcode: string, status: ScanStatus) => {
      if (!mine() || !qrcode || (status !== ScanStatus.Waiting && status !== ScanStatus.Timeout)) return;
      reached = true;
      this.failures = 0;
      this.setHealth({ state: "to_be_associated", detail: "detail.waiting_scan", loginQr: qrcode });
    });
    bot.on("login", (user: Contact) => {
      if (!mine()) return;
      reached = true;
      this.failures = 0;
      this.setHealth({ state: "online", detail: undefined, loginQr: null, loginName: user.name() });
    });
    bot.on("logout", (_user: Contact, reason?: string) => {
      // A puppet that stops says "logout" on its way out: that is no lapse of the WeChat login
      // (the session is kept), and a puppet that stopped on its own is reported as reconnecting.
      if (!mine() || reason === "puppet stop()" || puppetOf(bot)?.state.inactive()) return;
      this.setHealth({ state: "offline", detail: "detail.login_lapsed", loginQr: null });
    });
    bot.on("message", (msg: Message) =>
      guard("message", async () => {
        if (!mine()) return;
        const inbound = await toInbound(msg);
        if (inbound) await this.hooks?.onMessage(inbound);
      }),
    );
    bot.on("friendship", (friendship: Friendship) =>
      guard("friendship", async () => {
        if (!mine()) return;
        const type = friendship.type();
        if (type === types.Friendship.Receive) await friendship.accept();
        else if (type === types.Friendship.Confirm) await this.hooks?.onGreeting(friendGreeting(friendship));
      }),
    );
    bot.on("room-join", (room: Room, invitees: Contact[]) =>
      guard("room-join", async () => {
        if (!mine() || !bot.isLoggedIn) return;
        const trigger = await roomJoinGreeting(bot.currentUser.id, room, invitees);
        if (trigger) await this.hooks?.onGreeting(trigger);
      }),
    );
  }
}

/** The instance's puppet, or undefined when it never got one (wechaty throws NOPUPPET). */
function puppetOf(bot: Wechaty) {
  try {
    return bot.puppet;
  } catch {
    return undefined;
  }
}
