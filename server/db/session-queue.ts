// PGlite is one Postgres session. Several processes reach it through pglite-socket, so every
// protocol message is queued here and run one at a time. A connection keeps the session while it
// has a transaction open (BEGIN..COMMIT) or an extended-protocol batch open (Parse..Sync): without
// the second rule another connection's Parse could replace this one's unnamed statement between
// its Bind and Execute. pglite-socket's own queue only knows the first rule.
import type { PGlite } from "@electric-sql/pglite";

type QueuedMessage = {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: unknown) => void;
};

const BATCH_TYPES = new Set(["P", "B", "D", "E", "C", "H"].map((c) => c.charCodeAt(0)));
const SYNC = "S".charCodeAt(0);
const SYNC_MESSAGE = new Uint8Array([SYNC, 0, 0, 0, 4]);
const ROLLBACK_MESSAGE = simpleQuery("ROLLBACK");

/** A protocol 'Q' message. Inside runExclusive we cannot call db.exec: it takes the same mutex. */
function simpleQuery(sql: string) {
  const text = new TextEncoder().encode(`${sql}\0`);
  const msg = new Uint8Array(5 + text.length);
  msg[0] = "Q".charCodeAt(0);
  new DataView(msg.buffer).setInt32(1, 4 + text.length);
  msg.set(text, 5);
  return msg;
}

export class SessionQueue {
  private queue: QueuedMessage[] = [];
  private processing = false;
  private owner: number | null = null;
  private openBatches = new Set<number>();
  private ownerIdleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: PGlite,
    /** Called when a connection holds the session idle for too long; it should close that connection. */
    private readonly onOwnerStuck: (handlerId: number) => void = () => {},
    private readonly ownerIdleMs = 60_000,
  ) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.drain();
    });
  }

  getQueueLength() {
    return this.queue.length;
  }

  /** The id of the connection that holds the session, if any (for tests and diagnostics). */
  get sessionOwner() {
    return this.owner;
  }

  clearQueueForHandler(handlerId: number) {
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error("connection closed"));
      return false;
    });
  }

  /** A connection went away: give the session back in a clean state. */
  async clearTransactionIfNeeded(handlerId: number) {
    if (this.owner !== handlerId && !this.openBatches.has(handlerId)) return;
    await this.db.runExclusive(async () => {
      // A batch cut off after an error leaves Postgres skipping messages until Sync.
      if (this.openBatches.has(handlerId)) await this.db.execProtocolRawStream(SYNC_MESSAGE, { onRawData: () => {} });
      if (this.db.isInTransaction()) await this.db.execProtocolRawStream(ROLLBACK_MESSAGE, { onRawData: () => {} });
    });
    this.openBatches.delete(handlerId);
    this.setOwner(null);
    void this.drain();
  }

  private setOwner(handlerId: number | null) {
    this.owner = handlerId;
    clearTimeout(this.ownerIdleTimer);
    this.ownerIdleTimer = undefined;
  }

  private armIdleTimer() {
    if (this.owner === null || this.ownerIdleTimer) return;
    const stuck = this.owner;
    this.ownerIdleTimer = setTimeout(() => {
      if (this.owner === stuck) this.onOwnerStuck(stuck);
    }, this.ownerIdleMs);
    this.ownerIdleTimer.unref();
  }

  private nextIndex() {
    if (this.owner === null) return this.queue.length ? 0 : -1;
    return this.queue.findIndex((item) => item.handlerId === this.owner);
  }

  private async drain() {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let i = this.nextIndex(); i !== -1; i = this.nextIndex()) {
        const [item] = this.queue.splice(i, 1);
        clearTimeout(this.ownerIdleTimer);
        this.ownerIdleTimer = undefined;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (err) {
          item.reject(err);
          continue;
        }
        this.trackBatch(item);
        this.setOwner(this.db.isInTransaction() || this.openBatches.has(item.handlerId) ? item.handlerId : null);
        item.resolve(bytes);
      }
      this.armIdleTimer();
    } finally {
      this.processing = false;
    }
  }

  private trackBatch({ handlerId, message }: QueuedMessage) {
    const type = message[0];
    if (type === SYNC) this.openBatches.delete(handlerId);
    else if (BATCH_TYPES.has(type) && !isStartupMessage(message)) this.openBatches.add(handlerId);
  }
}

function isStartupMessage(message: Uint8Array) {
  if (message.length < 8) return false;
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  return view.getInt32(4) === 196608;
}
