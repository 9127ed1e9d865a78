import { createInstance, type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { LANGUAGE_STORAGE_KEY, type Language } from "./language.ts";
import { loadMessages, type Messages, NAMESPACES } from "./resources.ts";

/**
 * A synchronous i18next instance over the active language's copy, already loaded (see
 * `loadMessages`); other languages are added when the user switches. `<html lang>` follows it.
 */
export function createAppI18n(language: Language, messages: Messages, root?: HTMLElement): i18n {
  const instance = createInstance();
  if (root) {
    instance.on("languageChanged", (lng) => {
      root.lang = lng;
    });
  }
  void instance.use(initReactI18next).init({
    lng: language,
    // Every language has every key (the parity test), so nothing falls back to another file.
    fallbackLng: false,
    supportedLngs: ["en", "zh-CN"],
    ns: [...NAMESPACES],
    defaultNS: "common",
    resources: { [language]: messages },
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
  });
  return instance;
}

/** Fetches the language's copy if this page lacks it, then switches live and remembers it. */
export async function switchLanguage(
  instance: i18n,
  language: Language,
  storage?: Storage,
): Promise<void> {
  try {
    storage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private browsing may refuse storage; the switch still applies to this visit.
  }
  if (!instance.hasResourceBundle(language, "common")) {
    const messages = await loadMessages(language);
    for (const namespace of NAMESPACES) {
      instance.addResourceBundle(language, namespace, messages[namespace]);
    }
  }
  await instance.changeLanguage(language);
}
