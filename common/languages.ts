// Which languages exist and how the choice is kept: the page and the server (API messages, emails,
// chat platforms' cards) both need it, so it lives below both.
export const LANGUAGES = ["zh_hans", "zh_hant", "en", "pt"] as const;
export type TLanguage = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: TLanguage = "zh_hans";
export const LANGUAGE_COOKIE = "lang";
export const LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;
export const NAMESPACES = [
  "common",
  "errors",
  "home",
  "site",
  "legal",
  "mobi",
  "auth",
  "agents",
  "chat",
  "models",
  "media",
  "database",
  "train",
  "apps",
  "h5",
  "share",
  "appdata",
  "apikeys",
  "market",
  "statements",
  "withdrawals",
  "purchases",
  "metering",
  "editions",
  "payments",
  "distribution",
  "bots",
  "content",
  "workspace",
  "generation",
  "voices",
  "figures",
  "digital",
  "instances",
  "workshops",
] as const;
export type TNamespace = (typeof NAMESPACES)[number];

export function isLanguage(value: unknown): value is TLanguage {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

export function readLanguageCookie(cookieHeader: string | null | undefined): TLanguage {
  const match = /(?:^|;\s*)lang=([^;]+)/.exec(cookieHeader ?? "");
  const value = match ? decodeURIComponent(match[1]) : undefined;
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}
