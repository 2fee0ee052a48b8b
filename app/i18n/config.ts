// The languages as the page shows them. Which languages exist and how the choice is kept is
// common/languages.ts, shared with the server; it is re-exported here for the page's modules.
import { isLanguage, type TLanguage } from "../../common/languages";

export * from "../../common/languages";

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
