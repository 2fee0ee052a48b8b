// The administrators' part of the sensitive-word list, kept in two system settings: the words they
// added, and the default words they switched off. Changes hold one transaction-wide lock, so two
// administrators saving at once both land (neither reads the lists the other is about to replace).
import { getDb, type TDbOrTx, type TTx } from "../db/client";

export const ADDED_SETTING = "sensitive_words";
export const DISABLED_SETTING = "sensitive_words_disabled";

export type TWordSettings = { added: string[]; disabled: string[] };

const asWords = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

export async function findWordSettings(tx: TDbOrTx = getDb()): Promise<TWordSettings> {
  const rows = await tx.systemSetting.findMany({ where: { key: { in: [ADDED_SETTING, DISABLED_SETTING] } }, select: { key: true, value: true } });
  const value = (key: string) => asWords(rows.find((r) => r.key === key)?.value);
  return { added: value(ADDED_SETTING), disabled: value(DISABLED_SETTING) };
}

export async function lockWordSettings(tx: TTx) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('sensitive_words'))`;
}

export async function saveWordSettings(settings: TWordSettings, tx: TDbOrTx = getDb()) {
  for (const [key, value] of [
    [ADDED_SETTING, settings.added],
    [DISABLED_SETTING, settings.disabled],
  ] as const) {
    await tx.systemSetting.upsert({ where: { key }, create: { key, value }, update: { value } });
  }
}

/** Runs `change` on the current lists under the lock and saves what it returns. */
export async function updateWordSettings<T>(
  change: (current: TWordSettings) => { next: TWordSettings; result: T },
): Promise<{ settings: TWordSettings; result: T }> {
  return getDb().$transaction(async (tx) => {
    await lockWordSettings(tx);
    const { next, result } = change(await findWordSettings(tx));
    await saveWordSettings(next, tx);
    return { settings: next, result };
  });
}
