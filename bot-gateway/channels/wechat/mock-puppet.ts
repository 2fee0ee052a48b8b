// Personal WeChat without WeChat: wechaty-puppet-mock stands in for the platform when
// WECHATY_PUPPET=wechaty-puppet-mock (the integration tests, and the gateway process the
// end-to-end run starts). Each connected bot gets its own Mocker (wechaty-puppet-mock's simulated
// world: contacts, rooms, messages), registered here by bot id so a test in the same process can
// play the other side: show a QR (`scan`), log in (`login`), make contacts speak to the bot or in a
// room, request friendship, add someone to a room, log out, kill the puppet, and read what the
// bot said.
//
// Development mode (WECHATY_MOCK_AUTO_SCAN=1, for a gateway in another process than the test):
// when a bot's mock puppet starts it shows a login QR at once, as the real puppet does. The QR's
// content is a loopback URL served by this process,
//   http://127.0.0.1:<port>/wechaty-mock/<botId>/<generation>/scan[?name=<login name>]
// and fetching it is "scanning it with the phone": the mock logs in (as `name`, default
// "Zelin Mock") and the bot goes online. A test reads the QR from the console (or the bot row's
// login_qr) and fetches it. `.../logout` on the same path logs the bot out (its login lapses). A
// QR from an earlier start of the bot answers 410; only 127.0.0.1 is listened on.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { FileBox } from "file-box";
import { types, type payloads } from "wechaty";
import { PuppetMock, mock } from "wechaty-puppet-mock";
import { getEnv } from "../../../server/env";

type TMocker = InstanceType<typeof mock.Mocker>;
export type TContactMock = InstanceType<typeof mock.ContactMock>;
export type TRoomMock = InstanceType<typeof mock.RoomMock>;

/** wechaty-puppet-mock plus what WeChat does when a request is accepted: it confirms the friendship. */
class ZelinPuppetMock extends PuppetMock {
  readonly acceptedFriendships: string[] = [];

  override async friendshipAccept(friendshipId: string): Promise<void> {
    const request = await this.friendshipPayload(friendshipId);
    this.acceptedFriendships.push(friendshipId);
    // The real puppets report WeChat's "you have added X" system message as a Confirm friendship.
    const confirmId = `${friendshipId}-confirm`;
    await this.friendshipPayload(confirmId, { id: confirmId, contactId: request.contactId, timestamp: Date.now(), type: types.Friendship.Confirm });
    setImmediate(() => this.emit("friendship", { friendshipId: confirmId }));
  }
}

/** One bot's simulated WeChat: the test's handle on the other side of the channel. */
export class MockWechat {
  user?: TContactMock;

  constructor(
    readonly botId: string,
    readonly generation: number,
    readonly mocker: TMocker,
    readonly puppet: ZelinPuppetMock,
  ) {}

  /** Shows a login QR (a new one replaces the old). */
  scan(qrcode = `mock-wechat:${this.botId}:${Date.now()}`): string {
    this.mocker.scan(qrcode, types.ScanStatus.Waiting);
    return qrcode;
  }

  /** The owner scanned the QR: the bot logs in (the first time as a new contact named `name`). */
  login(name = "Zelin Mock"): TContactMock {
    this.user ??= this.mocker.createContact({ name });
    this.mocker.login(this.user);
    return this.user;
  }

  /** The login lapses (WeChat ended the session). */
  async logout(reason = "mock logout"): Promise<void> {
    await this.puppet.logout(reason);
  }

  /** The puppet dies under the channel (the channel should notice and start a new one). */
  async kill(): Promise<void> {
    await this.puppet.stop();
  }

  contact(name: string): TContactMock {
    return this.mocker.createContact({ name });
  }

  /** A group with the bot and `members` in it (room ids carry "@", as the mock puppet needs). */
  room(topic: string, members: TContactMock[]): TRoomMock {
    return this.mocker.createRoom({ topic, memberIdList: [this.self().id, ...members.map((c) => c.id)] });
  }

  /** `from` writes to the bot directly. */
  say(from: TContactMock, text: string): void {
    from.say(text).to(this.self());
  }

  /** `from` writes in `room`, mentioning the bot ("@name text") when `mention` is set. */
  sayInRoom(from: TContactMock, room: TRoomMock, text: string, opts: { mention?: boolean } = {}): void {
    const me = this.self();
    if (opts.mention) from.say(`@${me.payload.name}\u2005${text}`, [me]).to(room);
    else from.say(text).to(room);
  }

  /** `from` asks to be the bot's friend; the friendship id. */
  async requestFriendship(from: TContactMock, hello = ""): Promise<string> {
    const id = `friendship-${from.id}-${Date.now()}`;
    const request: payloads.Friendship = { id, contactId: from.id, hello, ticket: `ticket-${id}`, timestamp: Date.now(), type: types.Friendship.Receive };
    await this.puppet.friendshipPayload(id, request);
    this.puppet.emit("friendship", { friendshipId: id });
    return id;
  }

  /** Friend requests the bot accepted, by friendship id. */
  accepted(): string[] {
    return [...this.puppet.acceptedFriendships];
  }

  /** The texts the bot said to a contact or in a room, oldest first. */
  said(conversationId: string): string[] {
    const me = this.user?.id;
    const out: string[] = [];
    for (const m of this.mocker.cacheMessagePayload.values()) {
      if (m.talkerId !== me || m.type !== types.Message.Text) continue;
      const where = "roomId" in m && m.roomId ? m.roomId : "listenerId" in m ? m.listenerId : undefined;
      if (where === conversationId) out.push(m.text ?? "");
    }
    return out;
  }

  /** The pictures, videos and files the bot sent to a contact or in a room, oldest first, with their bytes. */
  async sentFiles(conversationId: string): Promise<Array<{ type: types.Message; name: string; bytes: Buffer }>> {
    const me = this.user?.id;
    const out: Array<{ type: types.Message; name: string; bytes: Buffer }> = [];
    for (const m of this.mocker.cacheMessagePayload.values()) {
      const where = "roomId" in m && m.roomId ? m.roomId : "listenerId" in m ? m.listenerId : undefined;
      const json = this.mocker.cacheFileBoxPayload.get(m.id);
      if (m.talkerId !== me || where !== conversationId || !json) continue;
      const box = FileBox.fromJSON(json);
      out.push({ type: m.type, name: box.name, bytes: await box.toBuffer() });
    }
    return out;
  }

  self(): TContactMock {
    if (!this.user) throw new Error("MockWechat: log the bot in first");
    return this.user;
  }
}

const live = new Map<string, MockWechat>();
let generations = 0;

/** The simulated WeChat of a bot whose channel is connected in this process, if any. */
export function getMocker(botId: string): MockWechat | undefined {
  return live.get(botId);
}

/** Waits for the bot's channel to start a mock puppet (a newer one than `after`, when given). */
export async function waitForMocker(botId: string, opts: { after?: MockWechat; timeoutMs?: number } = {}): Promise<MockWechat> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const m = live.get(botId);
    if (m && m !== opts.after) return m;
    if (Date.now() > deadline) throw new Error(`no mock WeChat for bot ${botId}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A fresh mock puppet for a bot's channel; `release` forgets it when the channel stops it. */
export function createMockPuppet(botId: string): { puppet: ZelinPuppetMock; handle: MockWechat; release(): void } {
  const mocker = new mock.Mocker();
  const puppet = new ZelinPuppetMock({ mocker });
  const handle = new MockWechat(botId, ++generations, mocker, puppet);
  if (getEnv().WECHATY_MOCK_AUTO_SCAN) {
    // Mocker environments run when the puppet starts, like the real puppet's first QR; after a
    // logout a new QR follows, as wechat4u restarts its login.
    let shown = 0;
    const showQr = () =>
      controlServer()
        .then((base) => live.get(botId) === handle && handle.scan(`${base}/wechaty-mock/${botId}/${handle.generation}/scan?qr=${++shown}`))
        .catch(() => undefined);
    // (wechaty reports the logout asynchronously: the new QR comes after it, as on a real restart)
    puppet.on("logout", () => void setTimeout(showQr, 200));
    mocker.use(() => {
      void showQr();
      return () => undefined;
    });
  }
  live.set(botId, handle);
  return { puppet, handle, release: () => live.get(botId) === handle && live.delete(botId) };
}

let server: Promise<string> | undefined;

/** The loopback server that development-mode QR codes point at (one per process). */
function controlServer(): Promise<string> {
  server ??= new Promise((resolve, reject) => {
    const srv = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const m = /^\/wechaty-mock\/([^/]+)\/(\d+)\/(scan|logout)$/.exec(url.pathname);
      const answer = (status: number, body: object) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (!m) return answer(404, { error: "not found" });
      const handle = live.get(decodeURIComponent(m[1]));
      if (!handle || handle.generation !== Number(m[2])) return answer(410, { error: "this QR code is no longer shown" });
      if (m[3] === "scan") {
        if (handle.puppet.isLoggedIn) return answer(409, { error: "already logged in" });
        const user = handle.login(url.searchParams.get("name") || undefined);
        return answer(200, { login_name: user.payload.name });
      }
      if (!handle.puppet.isLoggedIn) return answer(409, { error: "not logged in" });
      handle.logout().then(
        () => answer(200, { logged_out: true }),
        (err: Error) => answer(500, { error: err.message }),
      );
    });
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      srv.unref();
      resolve(`http://127.0.0.1:${(srv.address() as AddressInfo).port}`);
    });
  });
  return server;
}
