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
export type TScreenLock = { screen_control: 0 | 1; items: TScreenLockItem[] };

export type TSystemConfig = {
  domain: string;
  config: { market: string; contact_phone: string; default_ui_size: "medium"; languages: string[] };
  pay_enable: boolean;
  app_audio_enable: boolean;
  private: boolean;
  intelligent_agent_market: boolean;
};
