import { z } from "zod";

export const ZSetSensitiveWordsInput = z.object({
  words: z.array(z.string().trim().min(1, "validation.required").max(50, "validation.too_long")).max(50_000),
});
