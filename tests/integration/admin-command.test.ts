// `npm run admin` on the embedded database: while a host serves the data directory (as `npm start`
// does) the command works through it instead of stopping at the directory's lock; with none
// running it opens the directory itself.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { findRunningHost, hostAddressFile } from "../../server/db/embedded-host-address";
import { startEmbeddedHost, type EmbeddedHost } from "../../server/db/embedded-host";
import { applyMigrations } from "../../server/db/migrate";
import { dropSingleton } from "../../server/lib/singleton";
import { Browser, startApiServer } from "../helpers/api-client";

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
let dataDir = "";
let host: EmbeddedHost | undefined;

/** The operator's command, with the settings of a plain `npm start` install: DATA_DIR and nothing else. */
async function admin(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  delete env.ZELIN_EMBEDDED_DB;
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { cwd: ROOT, env, timeout: 120_000 });
    return { code: 0, stdout: stdout.trim(), stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: (e.stdout ?? "").trim(), stderr: e.stderr ?? "" };
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-admin-"));
  // As the supervisor does: the host on DATA_DIR, then the migrations through it.
  host = await startEmbeddedHost({ dataDir });
  await applyMigrations(host.url);
  await getDb().$disconnect();
  dropSingleton("prisma");
  process.env.DATABASE_URL = host.url;
  process.env.ZELIN_EMBEDDED_DB = "1";
});
afterAll(async () => {
  await getDb().$disconnect();
  dropSingleton("prisma");
  await host?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run admin on the embedded database", () => {
  it("finds the running host from the address it records in DATA_DIR", async () => {
    expect(JSON.parse(fs.readFileSync(hostAddressFile(dataDir), "utf8"))).toMatchObject({ pid: process.pid, port: host!.port });
    expect(await findRunningHost(dataDir)).toBe(host!.url);
  });

  it("prints a setup code through the running host, and that code makes the first administrator", async () => {
    const out = await admin("setup-code");
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^[2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4}$/);
    // A second run replaces the code: only the newest works.
    const again = await admin("setup-code");
    expect(again.stdout).not.toBe(out.stdout);
    const api = await startApiServer();
    try {
      const body = { account: "ops_first", password: "Ops-Admin-2026", confirm: "Ops-Admin-2026" };
      expect((await new Browser(api.base, "10.9.0.1").call("/api/v1/setup", { body: { ...body, code: out.stdout } })).body.status).toBe(421102);
      expect(
        (await new Browser(api.base, "10.9.0.2").call("/api/v1/setup", { body: { ...body, code: again.stdout.toLowerCase().replace("-", " ") } })).body.status,
      ).toBe(200);
    } finally {
      await api.close();
    }
    expect(await getDb().account.findUnique({ where: { account: "ops_first" }, select: { roles: true } })).toEqual({
      roles: ["platform_admin", "individual_developer"],
    });
  });

  it("keeps its other commands, and says setup is closed once an administrator exists", async () => {
    const created = await admin("create-platform-admin", "--account", "ops_second", "--password", "Ops-Second-26!");
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toBe("created platform administrator ops_second");
    const closed = await admin("setup-code");
    expect(closed.code).toBe(2);
    expect(closed.stderr).toContain("already has an administrator");
  });

  it("sets a new password for an account with no phone to reset by, ending its sessions; refuses an unknown account or a short password", async () => {
    const api = await startApiServer();
    try {
      const user = new Browser(api.base, "10.9.0.3");
      const registered = await user.call("/api/v1/auth/register", {
        body: { account: "no_phone_user", password: "old-pass-1", confirm: "old-pass-1", agreed: true },
      });
      expect(registered.body.status, registered.body.description).toBe(200);
      expect((await user.call("/api/v1/account/me")).body.status).toBe(200);
      const unknown = await admin("reset-password", "--account", "nobody_here", "--password", "new-pass-2");
      expect([unknown.code, unknown.stderr.trim()]).toEqual([2, "--account: no account named nobody_here"]);
      const short = await admin("reset-password", "--account", "no_phone_user", "--password", "x");
      expect(short.code).toBe(2);
      expect(short.stderr).toContain("--password");
      // Neither refusal changed anything: the old password still signs in.
      expect(
        (await new Browser(api.base, "10.9.0.4").call("/api/v1/auth/login", { body: { account: "no_phone_user", password: "old-pass-1", agreed: true } })).body
          .status,
      ).toBe(200);
      const done = await admin("reset-password", "--account", "no_phone_user", "--password", "new-pass-2");
      expect(done.code, done.stderr).toBe(0);
      expect((await user.call("/api/v1/account/me")).body.status).not.toBe(200);
      const fresh = new Browser(api.base, "10.9.0.5");
      expect((await fresh.call("/api/v1/auth/login", { body: { account: "no_phone_user", password: "old-pass-1", agreed: true } })).body.status).not.toBe(200);
      expect((await fresh.call("/api/v1/auth/login", { body: { account: "no_phone_user", password: "new-pass-2", agreed: true } })).body.status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it("opens the data directory itself once the host has stopped", async () => {
    await getDb().$disconnect();
    await host!.close();
    host = undefined;
    expect(fs.existsSync(hostAddressFile(dataDir))).toBe(false);
    expect(await findRunningHost(dataDir)).toBeNull();
    const invite = await admin("invite", "--uses", "3");
    expect(invite.code, invite.stderr).toBe(0);
    expect(invite.stdout).toMatch(/^[A-Z0-9]{1,8}$/);
    // What it wrote is there for the next start.
    host = await startEmbeddedHost({ dataDir });
    dropSingleton("prisma");
    process.env.DATABASE_URL = host.url;
    expect(await getDb().invitationCode.findUnique({ where: { code: invite.stdout }, select: { maxUses: true } })).toEqual({ maxUses: 3 });
  });
});
