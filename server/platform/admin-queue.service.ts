import type { TAdminQueue } from "./admin-queue.schema";
import { countAdminQueue } from "./admin-queue.repository";

/** Counts of what waits for a platform administrator; the caller has checked the role. */
export async function getAdminQueue(): Promise<TAdminQueue> {
  const counts = await countAdminQueue();
  const total = counts.agent_review + counts.app_review + counts.certifications + counts.withdrawals;
  return { ...counts, total };
}
