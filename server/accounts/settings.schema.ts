import { z } from "zod";
import { LANGUAGES } from "../../common/languages";

export const ZUpdateProfileInput = z.object({
  nickname: z.string().trim().min(1, "validation.nickname").max(20, "validation.nickname").optional(),
  language: z.enum(LANGUAGES).optional(),
});
export type TUpdateProfileInput = z.infer<typeof ZUpdateProfileInput>;
