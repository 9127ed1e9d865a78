import { createInstance, type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { LANGUAGE_STORAGE_KEY, type Language } from "./language.ts";
import { NAMESPACES, resources } from "./resources.ts";

/** A synchronous i18next instance over the bundled locale files; `<html lang>` follows it. */
export function createAppI18n(language: Language, root?: HTMLElement): i18n {
  const instance = createInstance();
  if (root) {
    instance.on("languageChanged", (lng) => {
      root.lang = lng;
    });
  }
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: "en",
    supportedLngs: ["en", "zh-CN"],
    ns: [...NAMESPACES],
    defaultNS: "common",
    resources,
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
  });
  return instance;
}

/** Switches live and remembers the choice for the next visit. */
export function switchLanguage(instance: i18n, language: Language, storage?: Storage): void {
  try {
    storage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private browsing may refuse storage; the switch still applies to this visit.
  }
  void instance.changeLanguage(language);
}
