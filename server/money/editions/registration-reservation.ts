// A paid registration reserves its account name from the moment its payment order is made until
// the order is paid, failed or closed (payments close stale pending orders after their TTL), so
// the payment can always create the account it was for. A day's cap keeps a forgotten pending
// order from holding a name for ever should the closing job be down.
import type { TDbOrTx } from "../../db/transaction";
import * as repo from "./editions.repository";

export const RESERVATION_MAX_MS = 24 * 60 * 60 * 1000;

export async function isNameReserved(account: string, tx?: TDbOrTx, now = new Date()): Promise<boolean> {
  return Boolean(await repo.findRegistrationReservation(account, new Date(now.getTime() - RESERVATION_MAX_MS), tx));
}
