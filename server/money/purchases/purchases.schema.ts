// A purchase request as the H5 plan sheet and /detail send it (form-encoded or JSON). request_id
// is a uuid the page makes once per confirm dialog: the same click sent twice buys once.
import { z } from "zod";

const ZId = z.string().trim().min(1).max(40);
/** touser is whatever the share link carried; a value that is not an account simply earns nothing. */
const ZTouser = z
  .string()
  .trim()
  .max(40)
  .optional()
  .or(z.literal("").transform(() => undefined));

export const ZBuyAppPlanInput = z.object({
  app_id: ZId,
  plan_id: ZId,
  request_id: z.uuid(),
  touser: ZTouser,
});
export type TBuyAppPlanInput = z.infer<typeof ZBuyAppPlanInput>;

export const ZBuyAgentInput = z.object({
  agent_id: ZId,
  request_id: z.uuid(),
  touser: ZTouser,
});
export type TBuyAgentInput = z.infer<typeof ZBuyAgentInput>;

export const ZOfferQuery = z.union([z.object({ app_id: ZId }), z.object({ agent_id: ZId })]);

export const ZListPurchasesQuery = z.object({
  buyer: z.string().trim().max(40).optional(),
  app_id: z.string().trim().max(40).optional(),
  refunded: z.enum(["yes", "no"]).optional(),
  cursor: z.string().max(80).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type TListPurchasesQuery = z.infer<typeof ZListPurchasesQuery>;

export type TPurchaseView = {
  id: string;
  kind: string;
  target_type: string;
  app_id: string | null;
  plan_id: string | null;
  agent_id: string | null;
  price_micro: number;
  starts_at: string | null;
  ends_at: string | null;
  uses_total: number | null;
  uses_used: number;
  daily_limit: number | null;
  sharer_account_id: string | null;
  refunded_at: string | null;
  created_at: string;
};
