// The sandbox's own books, apart from ours as a real provider's are: a trade file per order when it
// is made, and a result file when the payer pays or cancels (or we close it). The result is created
// exclusively, so the first decision stands: a trade paid cannot be closed, one closed cannot be
// paid, whichever of two racing requests (two web processes, the stale-order job) comes second.
// Kept in DATA_DIR/payment-sandbox, which every process of one install shares.
import fs from "node:fs/promises";
import path from "node:path";
import crypto from "node:crypto";
import { getEnv } from "../../../env";

export type TSandboxStatus = "SUCCESS" | "CLOSED";
export type TSandboxResult = { status: TSandboxStatus; trade_no: string; decided_at: string };
export type TSandboxTrade = { order_id: string; amount_fen: number; description: string; created_at: string; result: TSandboxResult | null };

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

function fileOf(orderId: string, kind: "trade" | "result") {
  // Ids come from our orders or from a verified notification; anything else is no trade's.
  if (!SAFE_ID.test(orderId)) throw new Error("sandbox: not an order id");
  return path.join(getEnv().DATA_DIR, "payment-sandbox", `${orderId}.${kind}.json`);
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await fs.readFile(file, "utf8")) as T;
  } catch (err) {
    // Missing, or created by a decision still being written: nothing to read yet.
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || err instanceof SyntaxError) return null;
    throw err;
  }
}

export async function openTrade(orderId: string, amountFen: number, description: string) {
  const file = fileOf(orderId, "trade");
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify({ order_id: orderId, amount_fen: amountFen, description, created_at: new Date().toISOString() }));
}

/** The trade as the sandbox knows it, or null when it never made one for this order. */
export async function readTrade(orderId: string): Promise<TSandboxTrade | null> {
  if (!SAFE_ID.test(orderId)) return null;
  const trade = await readJson<Omit<TSandboxTrade, "result">>(fileOf(orderId, "trade"));
  return trade ? { ...trade, result: await readJson<TSandboxResult>(fileOf(orderId, "result")) } : null;
}

/** Records the trade's outcome unless one is recorded already; answers the outcome that stands. */
export async function decideTrade(orderId: string, status: TSandboxStatus): Promise<TSandboxResult> {
  const file = fileOf(orderId, "result");
  await fs.mkdir(path.dirname(file), { recursive: true });
  const result: TSandboxResult = { status, trade_no: `sbx${Date.now()}${crypto.randomBytes(4).toString("hex")}`, decided_at: new Date().toISOString() };
  try {
    await fs.writeFile(file, JSON.stringify(result), { flag: "wx" });
    return result;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    // A file being written by the first decision may still be empty for a moment.
    for (let i = 0; i < 20; i++) {
      const first = await readJson<TSandboxResult>(file);
      if (first) return first;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("sandbox: a trade's result could not be read", { cause: err });
  }
}
