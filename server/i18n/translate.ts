// Server-side translation for API envelopes, emails and bot replies, from the same files the pages use.
import fs from "node:fs";
import path from "node:path";
import i18next, { type Resource, type TFunction } from "i18next";
import { DEFAULT_LANGUAGE, LANGUAGES, NAMESPACES, isLanguage, type TLanguage } from "../../common/languages";
import { singleton } from "../lib/singleton";

export const LOCALES_DIR = path.resolve(import.meta.dirname, "../../public/locales");

export function loadResources(dir = LOCALES_DIR): Resource {
  const resources: Resource = {};
  for (const lng of LANGUAGES) {
    resources[lng] = {};
    for (const ns of NAMESPACES) {
      const file = path.join(dir, lng, `${ns}.json`);
      resources[lng][ns] = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
    }
  }
  return resources;
}

const instance = singleton("i18n-server", () => {
  const i = i18next.createInstance();
  void i.init({
    resources: loadResources(),
    lng: DEFAULT_LANGUAGE,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: [...NAMESPACES],
    defaultNS: "common",
    interpolation: { escapeValue: false },
    initImmediate: false,
  });
  return i;
});

export function getT(lng: string | undefined, ns: string = "common"): TFunction {
  return instance.getFixedT(isLanguage(lng) ? lng : DEFAULT_LANGUAGE, ns);
}

export type { TLanguage };
