// The signed-in account as the browser may see it, made from the account row. Accounts own the row
// and its shape, so the mapping lives here; sessions, settings and sign-up all hand it out.
import type { TSessionAccount, TSessionAccountRow } from "./accounts.schema";

export function toSessionAccount(a: TSessionAccountRow): TSessionAccount {
  return {
    id: a.id,
    account: a.account,
    nickname: a.nickname,
    avatarUrl: a.avatarUrl,
    phone: a.phone,
    roles: [...a.roles],
    edition: a.edition,
    editionExpiresAt: a.editionExpiresAt?.toISOString() ?? null,
    enterpriseId: a.enterpriseId,
    language: a.language,
  };
}
