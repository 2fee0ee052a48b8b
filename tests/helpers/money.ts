// Money for tests: every chat reply costs its payer the channel fee, so accounts a test
// makes with Prisma directly (no registration, so no experience bonus) are given gift credit from
// the platform's promotion account, as the bonus would be, through the ledger's one posting function.
import crypto from "node:crypto";
import { post, platform, wallet } from "../../server/money/ledger.service";

/** What a test account gets: 10 Z of gift credit, thousands of replies. */
export const TEST_FUNDS_MICRO = 10_000_000;

export async function fundAccount(accountId: string, micro = TEST_FUNDS_MICRO, as: "gift" | "spendable" = "gift") {
  const from = as === "gift" ? platform("platform_promotion") : platform("payment_clearing");
  await post({
    key: `test-fund:${accountId}:${crypto.randomBytes(6).toString("hex")}`,
    kind: as === "gift" ? "bonus" : "topup",
    accountId,
    legs: [
      { account: from, amount: -micro },
      { account: wallet(as, accountId), amount: micro },
    ],
  });
}

/** End-to-end tests: gift credit for an account made straight in the run's database. */
export async function fundE2eAccount(databaseUrl: string, accountId: string, micro = TEST_FUNDS_MICRO) {
  process.env.DATABASE_URL = databaseUrl;
  await fundAccount(accountId, micro);
}
