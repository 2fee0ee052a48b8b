// Shared by the browser and the server: which languages exist and how the choice is kept.
export const LANGUAGES = ["zh_hans", "zh_hant", "en", "pt"] as const;
export type TLanguage = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: TLanguage = "zh_hans";
export const LANGUAGE_COOKIE = "lang";
export const LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;
export const NAMESPACES = ["common", "errors", "home", "site", "legal", "mobi", "auth", "agents", "chat", "models", "media", "database", "train", "apps", "h5", "share", "appdata", "apikeys", "market", "statements", "withdrawals", "purchases", "metering", "editions", "payments", "distribution", "bots", "content", "workspace"] as const;
export type TNamespace = (typeof NAMESPACES)[number];

/** The names each language is shown under in the switcher: always in its own script. */
export const LANGUAGE_LABELS: Record<TLanguage, string> = {
  zh_hans: "简体中文",
  zh_hant: "繁體中文",
  en: "English",
  pt: "Português",
};

/** The value for <html lang>, which wants BCP 47. */
export const HTML_LANG: Record<TLanguage, string> = { zh_hans: "zh-Hans", zh_hant: "zh-Hant", en: "en", pt: "pt" };

/** The BCP 47 locale for Intl formatting in the page's language (a Chinese page shows Chinese dates). */
export function uiLocale(language: string | undefined): string | undefined {
  return isLanguage(language) ? HTML_LANG[language] : undefined;
}

export function isLanguage(value: unknown): value is TLanguage {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

export function readLanguageCookie(cookieHeader: string | null | undefined): TLanguage {
  const match = /(?:^|;\s*)lang=([^;]+)/.exec(cookieHeader ?? "");
  const value = match ? decodeURIComponent(match[1]) : undefined;
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}
