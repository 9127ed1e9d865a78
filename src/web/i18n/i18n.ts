import { LANGUAGE_STORAGE_KEY, type Language } from "./language.ts";
import {
  type Copy,
  FIRST_NAMESPACES,
  loadCopy,
  loadMessages,
  type Namespace,
} from "./resources.ts";
import { Translator } from "./translator.ts";

/**
 * The page's translator over the active language's first-screen copy, already loaded (see
 * `loadMessages`). The pages' namespaces and other languages are read through `loadCopy` when
 * first used. `<html lang>` follows the language.
 */
export function createAppI18n(
  language: Language,
  messages: Partial<Record<Namespace, Copy>>,
  root?: HTMLElement,
): Translator {
  return new Translator(language, messages, loadCopy, (active) => {
    if (root) root.lang = active;
  });
}

/** Fetches the language's copy if this page lacks it, then switches live and remembers it. */
export async function switchLanguage(
  instance: Translator,
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
  // Also reads the pages' namespaces this page has loaded so far.
  await instance.changeLanguage(language);
}
