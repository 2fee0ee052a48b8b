// What waits for a platform administrator, screen by screen: the console's Administration menu
// shows each count next to its screen and their sum on the group. Payments have none: every order
// is settled by its provider's signed notification, the sandbox's included, never by hand.
import { z } from "zod";

export const ZAdminQueue = z.object({
  /** Agent versions submitted to the market, awaiting review (/admin/agent_review). */
  agent_review: z.number().int().nonnegative(),
  /** Apps awaiting review (/admin/app_review). */
  app_review: z.number().int().nonnegative(),
  /** Developer certifications awaiting review (/admin/certifications). */
  certifications: z.number().int().nonnegative(),
  /** Withdrawals awaiting payment (/admin/withdrawals). */
  withdrawals: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});

export type TAdminQueue = z.infer<typeof ZAdminQueue>;
