// What starts a WeChat QR login or binding: the query of GET /api/v1/auth/wechat/start.
import { z } from "zod";

export const ZWechatStartInput = z.object({
  purpose: z.enum(["login", "bind"]).default("login"),
  redirect: z.string().max(500).optional(),
});
export type TWechatStartInput = z.infer<typeof ZWechatStartInput>;
export type TWechatPurpose = TWechatStartInput["purpose"];
