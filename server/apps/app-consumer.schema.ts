// What an app's consumer (an account or an anonymous visitor) asks of the app's runtime.
import { z } from "zod";

export const ZAppQuery = z.object({ app_id: z.string().min(1).max(40) });
export type TAppQuery = z.infer<typeof ZAppQuery>;

export const ZAppDialoguesQuery = ZAppQuery.extend({ cursor: z.string().max(60).optional(), limit: z.coerce.number().int().min(1).max(100).default(20) });
export type TAppDialoguesQuery = z.infer<typeof ZAppDialoguesQuery>;
