import { z } from "zod";
import { LANGUAGES } from "../../app/i18n/config";

export const ZUpdateProfileInput = z.object({
  nickname: z.string().trim().min(1, "validation.nickname").max(20, "validation.nickname").optional(),
  language: z.enum(LANGUAGES).optional(),
});
