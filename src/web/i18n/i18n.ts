import { createInstance, type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { LANGUAGE_STORAGE_KEY, type Language } from "./language.ts";
import {
  type Copy,
  chunkBackend,
  FIRST_NAMESPACES,
  loadMessages,
  type Namespace,
} from "./resources.ts";

/**
 * A synchronous i18next instance over the active language's first-screen copy, already loaded
 * (see `loadMessages`). The pages' namespaces and other languages come through `chunkBackend`
 * when first used. `<html lang>` follows the language.
 */
export function createAppI18n(
  language: Language,
  messages: Partial<Record<Namespace, Copy>>,
  root?: HTMLElement,
): i18n {
  const instance = createInstance();
  if (root) {
    instance.on("languageChanged", (lng) => {
      root.lang = lng;
    });
  }
  void instance
    .use(chunkBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      // Every language has every key (the parity test), so nothing falls back to another file.
      fallbackLng: false,
      supportedLngs: ["en", "zh-CN"],
      // Namespaces listed here are read for a new language before a switch shows it.
      ns: [...new Set([...FIRST_NAMESPACES, ...Object.keys(messages)])],
      defaultNS: "common",
      // The plan card asks for question:planReview.*; those strings live in the plan namespace,
      // which comes with the card's chunk (issue 15).
      fallbackNS: "plan",
      resources: { [language]: messages },
      // The given copy is part of what there is: the rest is read through the backend.
      partialBundledLanguages: true,
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
    for (const namespace of FIRST_NAMESPACES) {
      instance.addResourceBundle(language, namespace, messages[namespace]);
    }
  }
  // Also reads, through the backend, the pages' namespaces this page has loaded so far.
  await instance.changeLanguage(language);
}
