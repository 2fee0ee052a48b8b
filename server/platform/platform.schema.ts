import { z } from "zod";

export const ZScreenLockItem = z.object({
  img_name: z.string().trim().min(1, "validation.required").max(100, "validation.too_long"),
  img_url: z
    .string()
    .trim()
    .max(2000, "validation.too_long")
    .refine((u) => /^https?:\/\//i.test(u) || u.startsWith("/"), "validation.link_scheme"),
  screen_control: z.union([z.literal(0), z.literal(1)]).default(1),
});
export const ZSetScreenLockInput = z.object({ items: z.array(ZScreenLockItem).max(20) });

export type TScreenLockItem = z.infer<typeof ZScreenLockItem>;

// What is read back is shown as stored: the input's rules (trimming, link schemes) are not re-applied.
const ZScreenControl = z.union([z.literal(0), z.literal(1)]);
export const ZScreenLock = z.object({
  screen_control: ZScreenControl,
  items: z.array(z.object({ img_name: z.string(), img_url: z.string(), screen_control: ZScreenControl })),
});
export type TScreenLock = z.infer<typeof ZScreenLock>;

export const ZSystemConfig = z.object({
  domain: z.string(),
  config: z.object({ market: z.string(), contact_phone: z.string(), default_ui_size: z.literal("medium"), languages: z.array(z.string()) }),
  pay_enable: z.boolean(),
  app_audio_enable: z.boolean(),
  private: z.boolean(),
  intelligent_agent_market: z.boolean(),
});
export type TSystemConfig = z.infer<typeof ZSystemConfig>;
