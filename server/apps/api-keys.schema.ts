// API app keys on the wire (shared by the key panel and the server; no server imports here).
import { z } from "zod";

export const ZApiKeyAppInput = z.object({ app_id: z.string().min(1).max(40) });
export type TApiKeyAppInput = z.infer<typeof ZApiKeyAppInput>;

/** What the owner sees of a key after it was created: never the key itself, only its hint. */
export type TApiKeyView = {
  id: string;
  key_hint: string;
  rate_per_minute: number;
  created_at: string;
  last_used_at: string | null;
};

/** Shown once, right after create or reset: the full key and secret. */
export type TIssuedApiKey = TApiKeyView & { key: string; secret: string };

/** Keys are `zk-` + 32 url-safe characters; what the panel shows later is the start and end. */
export const API_KEY_PREFIX = "zk-";
