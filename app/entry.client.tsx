import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import Backend from "i18next-http-backend";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { getInitialNamespaces } from "remix-i18next/client";
import { DEFAULT_LANGUAGE, LANGUAGES, isLanguage } from "./i18n/config";

async function hydrate() {
  const htmlLng = document.documentElement.dataset.lng;
  await i18next
    .use(initReactI18next)
    .use(Backend)
    .init({
      lng: isLanguage(htmlLng) ? htmlLng : DEFAULT_LANGUAGE,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: getInitialNamespaces(),
      defaultNS: "common",
      interpolation: { escapeValue: false },
      backend: { loadPath: `/locales/{{lng}}/{{ns}}.json?v=${document.documentElement.dataset.build ?? ""}` },
    });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
