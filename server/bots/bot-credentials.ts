// A bot's channel credentials: checked against the channel's schema, sealed at rest (secret-box),
// and shown back masked. An edit that leaves a secret field empty keeps the stored secret.
import { ZodError } from "zod";
import { openSecret, sealSecret } from "../lib/secret-box";
import { CREDENTIAL_SCHEMAS, SECRET_FIELDS, type TBotChannel } from "./bots.schema";

/** Parses `raw` for `channel`, filling empty secret fields from `previous`; zod field paths under credentials. */
export function parseCredentials(channel: TBotChannel, raw: Record<string, unknown>, previous: Record<string, unknown> = {}): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...raw };
  for (const field of SECRET_FIELDS[channel]) {
    if ((merged[field] === undefined || merged[field] === "") && previous[field]) merged[field] = previous[field];
  }
  const parsed = CREDENTIAL_SCHEMAS[channel].safeParse(merged);
  if (!parsed.success) throw new ZodError(parsed.error.issues.map((i) => ({ ...i, path: ["credentials", ...i.path] })));
  return parsed.data as Record<string, unknown>;
}

export const sealCredentials = (creds: Record<string, unknown>) => sealSecret(JSON.stringify(creds));

/** Sealed credentials that do not open under this APP_SECRET (it was changed, or the row came from elsewhere). */
export class CredentialsUnreadableError extends Error {
  constructor(cause: unknown) {
    super("bot credentials cannot be opened with this APP_SECRET", { cause });
  }
}

export function openCredentials(sealed: string): Record<string, unknown> {
  if (!sealed) return {};
  try {
    return JSON.parse(openSecret(sealed)) as Record<string, unknown>;
  } catch (err) {
    throw new CredentialsUnreadableError(err);
  }
}

/** For the console: unreadable credentials show as empty, so the owner enters them again. */
export function openCredentialsOrEmpty(sealed: string): Record<string, unknown> {
  try {
    return openCredentials(sealed);
  } catch (err) {
    if (err instanceof CredentialsUnreadableError) return {};
    throw err;
  }
}

/** Secrets as "••••" plus their last 4 characters; other fields as they are. */
export function maskCredentials(channel: TBotChannel, creds: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(creds)) {
    const text = typeof v === "string" ? v : JSON.stringify(v);
    out[k] = SECRET_FIELDS[channel].includes(k) && text ? `••••${text.slice(-4)}` : text;
  }
  return out;
}
