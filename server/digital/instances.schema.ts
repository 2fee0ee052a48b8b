// Digital-human instances' inputs and views (tRPC digitalInstances.*, the /admin/digital_instances
// page), and the numbers their billing runs on. No server imports: the browser uses this file too.
import { z } from "zod";

const MICRO = 1_000_000;
/** The hourly price a platform bills until an administrator sets one: 1 Z (1 yuan) an hour. */
export const DEFAULT_INSTANCE_HOUR_PRICE_MICRO = 1_000_000;
/** The highest hourly price an administrator may set: 1000 Z. */
export const MAX_INSTANCE_HOUR_PRICE_MICRO = 1000 * MICRO;
/** A running instance nobody has used for this long is stopped. */
export const INSTANCE_IDLE_MS = 30 * 60_000;
/** One billed hour. */
export const INSTANCE_HOUR_MS = 60 * 60_000;

export const INSTANCE_STATES = ["running", "stopped"] as const;
export type TInstanceState = (typeof INSTANCE_STATES)[number];
export const INSTANCE_STOP_REASONS = ["idle", "balance", "admin", "app_closed"] as const;
export type TInstanceStopReason = (typeof INSTANCE_STOP_REASONS)[number];
export const INSTANCE_FILTERS = ["all", "running", "stopped"] as const;
export type TInstanceFilter = (typeof INSTANCE_FILTERS)[number];
export const INSTANCE_FILE_KINDS = ["speech", "lipsync"] as const;

export const INSTANCE_PAGE_SIZE = 20;

export const ZInstanceListInput = z.object({
  state: z.enum(INSTANCE_FILTERS).default("all"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type TInstanceListInput = z.infer<typeof ZInstanceListInput>;

export const ZInstanceIdInput = z.object({ id: z.string().min(1).max(64) });
export type TInstanceIdInput = z.infer<typeof ZInstanceIdInput>;

export const ZHourPriceMicro = z
  .number({ message: "instances:validation.hour_price" })
  .int("instances:validation.hour_price")
  .min(0, "instances:validation.hour_price")
  .max(MAX_INSTANCE_HOUR_PRICE_MICRO, "instances:validation.hour_price");
export const ZSetHourPriceInput = z.object({ priceMicro: ZHourPriceMicro });
export type TSetHourPriceInput = z.infer<typeof ZSetHourPriceInput>;

/** The price form's field: yuan with at most two decimals, 0 to 1000. */
export const ZHourPriceYuan = z
  .number({ message: "instances:validation.hour_price" })
  .min(0, "instances:validation.hour_price")
  .max(MAX_INSTANCE_HOUR_PRICE_MICRO / MICRO, "instances:validation.hour_price")
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "instances:validation.hour_price");

/** A file made for an instance's reply, as the runtime records it. */
export const ZInstanceFile = z.object({
  fileKey: z.string().min(1).max(300),
  kind: z.enum(INSTANCE_FILE_KINDS),
  bytes: z.number().int().min(0).max(2_147_483_647),
});
export type TInstanceFile = z.infer<typeof ZInstanceFile>;

/** One instance as administrators see it; money in micro-Z. */
export const ZInstanceView = z.object({
  id: z.string(),
  app: z.object({ id: z.string(), name: z.string() }),
  owner: z.object({ id: z.string(), nickname: z.string() }),
  state: z.enum(INSTANCE_STATES),
  stopReason: z.enum(INSTANCE_STOP_REASONS).nullable(),
  startedAt: z.string(),
  lastActiveAt: z.string(),
  stoppedAt: z.string().nullable(),
  hourPriceMicro: z.number().int(),
  hoursBilled: z.number().int(),
  chargedMicro: z.number().int(),
  fileCount: z.number().int(),
  fileBytes: z.number().int(),
});
export type TInstanceView = z.infer<typeof ZInstanceView>;

export const ZInstancePage = z.object({
  items: z.array(ZInstanceView),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type TInstancePage = z.infer<typeof ZInstancePage>;

export const ZHourPrice = z.object({ priceMicro: z.number().int(), defaultMicro: z.number().int(), maxMicro: z.number().int() });
export type THourPrice = z.infer<typeof ZHourPrice>;

/** What deleting an instance cleared. */
export const ZRemovedInstance = z.object({ id: z.string(), files: z.number().int(), bytes: z.number().int() });
export type TRemovedInstance = z.infer<typeof ZRemovedInstance>;
