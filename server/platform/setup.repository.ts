// First-run setup's storage: the hashed one-time code is a system setting (every web process and
// instance reads the same one), and "no administrator yet" is the absence of any platform_admin.
import { getDb, type TDbOrTx } from "../db/client";

const SETUP_CODE_KEY = "setup_code";

export async function platformAdminExists(tx: TDbOrTx = getDb()) {
  const row = await tx.account.findFirst({ where: { roles: { has: "platform_admin" } }, select: { id: true } });
  return row !== null;
}

export async function findSetupCode(tx: TDbOrTx = getDb()): Promise<{ hash: string; issuedAt: Date } | null> {
  const row = await tx.systemSetting.findUnique({ where: { key: SETUP_CODE_KEY }, select: { value: true, updatedAt: true } });
  const hash = (row?.value as { hash?: unknown } | null)?.hash;
  return row && typeof hash === "string" ? { hash, issuedAt: row.updatedAt } : null;
}

/**
 * Stores a new code's hash, in one statement so that instances starting together cannot both
 * believe theirs is the live one: an existing code issued at or after `replaceIssuedBefore` is
 * kept (false). Without `replaceIssuedBefore` the new code always replaces the old one.
 */
export async function saveSetupCode(hash: string, now: Date, replaceIssuedBefore: Date | null, tx: TDbOrTx = getDb()) {
  // Prisma keeps DateTime columns as UTC wall time (timestamp without time zone).
  const rows = await tx.$queryRaw<{ key: string }[]>`
    INSERT INTO system_setting (key, value, updated_at)
    VALUES (${SETUP_CODE_KEY}, ${JSON.stringify({ hash })}::jsonb, ${now}::timestamptz AT TIME ZONE 'UTC')
    ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at
    WHERE ${replaceIssuedBefore}::timestamptz IS NULL OR system_setting.updated_at < (${replaceIssuedBefore}::timestamptz AT TIME ZONE 'UTC')
    RETURNING key`;
  return rows.length === 1;
}

/**
 * Takes the code with this hash away. The row lock makes a second transaction with the same code
 * wait for the first and then find nothing: one code, one administrator.
 */
export async function consumeSetupCode(hash: string, tx: TDbOrTx) {
  const count = await tx.$executeRaw`DELETE FROM system_setting WHERE key = ${SETUP_CODE_KEY} AND value->>'hash' = ${hash}`;
  return count === 1;
}

export async function deleteSetupCode(tx: TDbOrTx = getDb()) {
  await tx.systemSetting.deleteMany({ where: { key: SETUP_CODE_KEY } });
}
