// The workspace, where an account lands after signing in: a getting-started checklist that ticks
// itself off from what the account has really done (built an agent, added knowledge, published an
// app, had it used by someone else, earned), its balance and whether a phone is bound.
import { getWallet } from "../money/ledger.service";
import { sumLines } from "../money/statements/statements.repository";
import * as repo from "./workspace.repository";
import { WORKSPACE_STEPS, type TWorkspaceOverview, type TWorkspaceStep } from "./workspace.schema";

/** What counts as earning: the lines the income statement lists as sales and dividends (refunds are money back, not earned). */
const EARNED = ["sale_income", "dividend"] as const;

export async function getWorkspaceOverview(account: { id: string; phone: string | null }): Promise<TWorkspaceOverview> {
  const [counts, wallet, income] = await Promise.all([repo.countWorkspaceProgress(account.id), getWallet(account.id), sumLines(account.id, EARNED, [])]);
  const byStep: Record<TWorkspaceStep, number> = {
    agent: counts.agents,
    knowledge: counts.training_sets,
    publish: counts.apps,
    // Shared: someone else chatted with one of the account's apps, or signed up through its link.
    share: counts.used_by_others + counts.referred,
    earn: income.all > 0 ? 1 : 0,
  };
  const steps = WORKSPACE_STEPS.map((key) => ({ key, done: byStep[key] > 0, count: byStep[key] }));
  return {
    steps,
    done: steps.filter((s) => s.done).length,
    balance: { availableMicro: wallet.available, giftMicro: wallet.gift },
    incomeMicro: Math.max(0, income.all),
    phoneBound: Boolean(account.phone),
  };
}
