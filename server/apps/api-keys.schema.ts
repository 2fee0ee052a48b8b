// API app keys on the wire (shared by the key panel and the server; no server imports here).
import { z } from "zod";

export const ZApiKeyAppInput = z.object({ app_id: z.string().min(1).max(40) });
export type TApiKeyAppInput = z.infer<typeof ZApiKeyAppInput>;

/** What the owner sees of a key after it was created: never the key itself, only its hint. */
export const ZApiKeyView = z.object({
  id: z.string(),
  key_hint: z.string(),
  rate_per_minute: z.number(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type TApiKeyView = z.infer<typeof ZApiKeyView>;

/** Shown once, right after create or reset: the full key and secret. */
export const ZIssuedApiKey = ZApiKeyView.extend({ key: z.string(), secret: z.string() });
export type TIssuedApiKey = z.infer<typeof ZIssuedApiKey>;

export const ZRevokedApiKey = z.object({ revoked: z.boolean() });

/** Keys are `zk-` + 32 url-safe characters; what the panel shows later is the start and end. */
export const API_KEY_PREFIX = "zk-";
