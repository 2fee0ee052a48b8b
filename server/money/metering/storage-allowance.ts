// How many training characters an account may keep: the free million always; beyond it,
// as many as the account can pay a day's storage for (0.01 Z per 100 characters a day, charged by
// the money.storage-charges job). Without that balance, more text is refused "characters
// insufficient" and nothing is written, so the storage charge is real and never an overdraft.
import { AppError } from "../../errors/app-error";
import type { TDbOrTx } from "../../db/transaction";
import { getWallet } from "../ledger.service";
import { FREE_TRAINING_CHARS, storageDayPriceMicro } from "../money.constants";

/** Refuses `adding` characters on top of `used` unless they fit the free million or the account can pay a day of the total. */
export async function assertTrainingCharsAllowed(accountId: string, used: number, adding: number, db?: TDbOrTx) {
  const total = used + adding;
  if (adding <= 0 || total <= FREE_TRAINING_CHARS) return;
  const dayPrice = storageDayPriceMicro(total);
  const { available } = await getWallet(accountId, db);
  if (available >= dayPrice) return;
  throw new AppError("characters_insufficient", {
    data: { used, adding, limit: FREE_TRAINING_CHARS, remaining: Math.max(0, FREE_TRAINING_CHARS - used), day_price_micro: dayPrice },
  });
}
