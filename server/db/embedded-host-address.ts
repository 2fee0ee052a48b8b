// Where the embedded host of a data directory answers. The host records its loopback address in
// DATA_DIR while it runs, so that operator commands (`npm run admin`) work on the running database
// instead of opening the data directory a second time, which its lock refuses.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

const ADDRESS_FILE = "embedded-host.json";

type TAddress = { pid: number; port: number; url: string };

export function hostAddressFile(dataDir: string) {
  return path.join(dataDir, ADDRESS_FILE);
}

export function writeHostAddress(dataDir: string, address: TAddress) {
  fs.writeFileSync(hostAddressFile(dataDir), JSON.stringify(address), { mode: 0o600 });
}

/** Removes the record, unless another process has written its own since. */
export function removeHostAddress(dataDir: string, pid = process.pid) {
  if (readHostAddress(dataDir)?.pid === pid) fs.rmSync(hostAddressFile(dataDir), { force: true });
}

function readHostAddress(dataDir: string): TAddress | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(hostAddressFile(dataDir), "utf8")) as Partial<TAddress>;
    if (!Number.isInteger(parsed.pid) || !Number.isInteger(parsed.port) || typeof parsed.url !== "string") return null;
    return parsed as TAddress;
  } catch {
    return null;
  }
}

/** Whether a process of this id runs (signal 0 probes without signalling). */
export function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The URL of the host running on `dataDir`, or null when none answers. A record left by a host that
 * was killed names a dead process, or a port nobody (or something else) listens on: both read as none.
 */
export async function findRunningHost(dataDir: string, timeoutMs = 3_000): Promise<string | null> {
  const address = readHostAddress(dataDir);
  if (!address || !isAlive(address.pid)) return null;
  const client = new pg.Client({ connectionString: address.url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return address.url;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}
