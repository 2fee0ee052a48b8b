import { createInstance, type i18n as TI18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { loadResources } from "../../server/i18n/translate";
import { DEFAULT_LANGUAGE, LANGUAGES, NAMESPACES, readLanguageCookie, type TLanguage } from "./config";

const resources = loadResources();

export function getRequestLanguage(request: Request): TLanguage {
  return readLanguageCookie(request.headers.get("cookie"));
}

/** A fresh instance per request, with every namespace loaded from disk at boot. */
export async function createServerI18n(lng: TLanguage): Promise<TI18n> {
  const instance = createInstance();
  await instance.use(initReactI18next).init({
    lng,
    resources,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: [...NAMESPACES],
    defaultNS: "common",
    interpolation: { escapeValue: false },
  });
  return instance;
}
