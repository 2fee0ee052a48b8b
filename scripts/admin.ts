// Operator commands, run against DATABASE_URL, or else the embedded database in DATA_DIR: the one
// `npm start` is serving when it runs (its host records its address there), else a host of our own.
//   npm run admin -- setup-code                  (a new one-time code for /setup, while no administrator exists)
//   npm run admin -- create-platform-admin --account ops_admin --password 'S3cure-Pass!'
//   npm run admin -- reset-password --account NAME --password PASS   (for an account with no phone to reset by)
//   npm run admin -- invite [--uses 10] [--days 30]
//   npm run admin -- knowledge-pause --account NAME   (and knowledge-resume): the training-set service
import { parseArgs } from "node:util";
import { getDb } from "../server/db/client";
import { hashPassword } from "../server/auth/password";
import { ZAccountName, ZStrictPassword } from "../server/accounts/accounts.schema";
import { randomToken } from "../server/lib/secret-box";
import { startEmbeddedHost } from "../server/db/embedded-host";
import { findRunningHost } from "../server/db/embedded-host-address";
import { applyMigrations } from "../server/db/migrate";
import { parseEnv } from "../server/env";

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: { account: { type: "string" }, password: { type: "string" }, uses: { type: "string" }, days: { type: "string" } },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const env = parseEnv();
const running = env.DATABASE_URL ? null : await findRunningHost(env.DATA_DIR);
const host = env.DATABASE_URL || running ? undefined : await startEmbeddedHost({ dataDir: env.DATA_DIR });
if (!env.DATABASE_URL) {
  process.env.DATABASE_URL = running ?? host!.url;
  // One PGlite session behind the socket: the server code must know (server/db/direct-pool.ts).
  process.env.ZELIN_EMBEDDED_DB = "1";
}
await applyMigrations(process.env.DATABASE_URL!);
const db = getDb();

try {
  if (command === "setup-code") {
    const { issueSetupCode } = await import("../server/platform/setup.service");
    const issued = await issueSetupCode({ force: true });
    if (issued.state === "issued") {
      // The code alone on stdout, for scripts; the sentence for people on stderr.
      console.error("Open /setup on this platform and enter this code (it replaces any earlier one):");
      console.log(issued.code);
    } else {
      // Not fail(): the host must close (below) to keep what was written.
      console.error("The platform already has an administrator: /setup is closed. Use create-platform-admin to add another.");
      process.exitCode = 2;
    }
  } else if (command === "create-platform-admin") {
    const account = ZAccountName.safeParse(values.account);
    if (!account.success) fail("--account: 5-18 letters, digits or underscores");
    const password = ZStrictPassword.safeParse(values.password);
    if (!password.success) fail("--password: 10-16 characters with upper and lower case, a digit and a symbol");
    const existing = await db.account.findUnique({ where: { account: account.data }, select: { id: true, roles: true } });
    if (existing) {
      const roles = [...new Set([...existing.roles, "platform_admin" as const])];
      await db.account.update({ where: { id: existing.id }, data: { roles, passwordHash: await hashPassword(password.data), passwordChangedAt: new Date() } });
      console.log(`${account.data} is now a platform administrator (password replaced).`);
    } else {
      await db.account.create({
        data: {
          account: account.data,
          nickname: account.data,
          roles: ["platform_admin"],
          passwordHash: await hashPassword(password.data),
          passwordChangedAt: new Date(),
        },
      });
      console.log(`created platform administrator ${account.data}`);
    }
  } else if (command === "reset-password") {
    const { resetPasswordByOperator } = await import("../server/auth/auth.service");
    try {
      await resetPasswordByOperator(values.account ?? "", values.password ?? "");
      console.log(`${values.account}: password replaced; every session of the account has ended.`);
    } catch (err) {
      if ((err as { code?: string }).code === "not_found") console.error(`--account: no account named ${values.account ?? "(missing)"}`);
      else if (Array.isArray((err as { issues?: unknown }).issues))
        console.error(
          "--password: 6-64 characters (10-16 with upper and lower case, a digit and a symbol where the account's enterprise requires strict passwords)",
        );
      else throw err;
      process.exitCode = 2;
    }
  } else if (command === "invite") {
    const uses = Number(values.uses ?? 1);
    const days = values.days ? Number(values.days) : undefined;
    if (!Number.isInteger(uses) || uses < 1 || uses > 10_000) fail("--uses: a whole number from 1 to 10000");
    const code = randomToken(6).replace(/[-_]/g, "").slice(0, 8).toUpperCase();
    await db.invitationCode.create({ data: { code, maxUses: uses, expiresAt: days ? new Date(Date.now() + days * 86_400_000) : null } });
    console.log(code);
  } else if (command === "knowledge-pause" || command === "knowledge-resume") {
    const row = await db.account.findUnique({ where: { account: values.account ?? "" }, select: { id: true } });
    if (!row) fail(`--account: no account named ${values.account ?? "(missing)"}`);
    const { setKnowledgePaused } = await import("../server/knowledge/indexing.service");
    await setKnowledgePaused(row.id, command === "knowledge-pause");
    console.log(`${values.account}: training-set service ${command === "knowledge-pause" ? "paused" : "resumed"}`);
  } else {
    fail(
      "usage: npm run admin -- setup-code | create-platform-admin --account NAME --password PASS | reset-password --account NAME --password PASS | invite [--uses N] [--days D] | knowledge-pause|knowledge-resume --account NAME",
    );
  }
} finally {
  await db.$disconnect();
  await host?.close();
}
