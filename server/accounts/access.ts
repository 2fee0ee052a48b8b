// The one access helper every area uses (docs/security.md, the tenant rule). Someone else's record
// answers not-found, never its data; a function the account may not use answers no_permission.
import { AppError } from "../errors/app-error";
import type { TSessionAccount } from "./accounts.schema";

// A row with no owning account (an H5 visitor's dialogue) is nobody's: it answers not_found.
export type TOwned = { accountId: string | null; enterpriseId?: string | null };

const ENTERPRISE_MANAGERS = ["enterprise_super_admin", "enterprise_admin"];

/**
 * Returns the record when the account owns it, or manages its enterprise and `enterpriseWide`
 * is set; otherwise not_found, so ids of other tenants reveal nothing.
 */
export function assertOwned<T extends TOwned>(
  record: T | null | undefined,
  account: Pick<TSessionAccount, "id" | "enterpriseId" | "roles">,
  opts: { enterpriseWide?: boolean } = {},
): T {
  if (!record) throw new AppError("not_found");
  if (record.accountId === account.id) return record;
  const manages =
    opts.enterpriseWide && account.enterpriseId && record.enterpriseId === account.enterpriseId && account.roles.some((r) => ENTERPRISE_MANAGERS.includes(r));
  if (manages) return record;
  throw new AppError("not_found");
}

export function hasRole(account: Pick<TSessionAccount, "roles"> | null | undefined, ...roles: string[]) {
  return Boolean(account?.roles.some((r) => roles.includes(r)));
}

export function assertRole(account: Pick<TSessionAccount, "roles"> | null | undefined, ...roles: string[]) {
  if (!hasRole(account, ...roles)) throw new AppError("no_permission");
}
