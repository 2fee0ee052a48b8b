// A registration that arrives with touser (the sharer's account id, carried by every page)
// records who brought the account, for distribution's invitees. Only an account that exists;
// anything else in the query is ignored, as a link someone edited should not refuse a registration.
import type { TDbOrTx } from "../../db/transaction";
import * as repo from "./editions.repository";

export async function resolveReferrer(touser: unknown, newAccountId: string | null, tx?: TDbOrTx): Promise<string | undefined> {
  if (typeof touser !== "string" || !/^[a-z0-9]{10,40}$/i.test(touser) || touser === newAccountId) return undefined;
  return (await repo.accountExists(touser, tx)) ? touser : undefined;
}
