// The experience bonus (EXPERIENCE_BONUS_MICRO): every new account gets 100 Z of gift credit, from
// the platform's promotion budget, exactly once (key bonus:<accountId>). Called inside the
// transaction that creates the account, so an account never exists without it and a failed creation
// grants nothing.
import type { TTx } from "../../db/transaction";
import { post, wallet, platform } from "../ledger.service";
import { EXPERIENCE_BONUS_MICRO } from "../money.constants";

export async function grantExperienceBonus(accountId: string, tx?: TTx) {
  return post(
    {
      key: `bonus:${accountId}`,
      kind: "bonus",
      accountId,
      legs: [
        { account: platform("platform_promotion"), amount: -EXPERIENCE_BONUS_MICRO },
        { account: wallet("gift", accountId), amount: EXPERIENCE_BONUS_MICRO },
      ],
    },
    tx,
  );
}
