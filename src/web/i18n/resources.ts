import type { Language } from "./language.ts";

/** Namespaces the first screen uses: one chunk per language, fetched before the first render. */
export const FIRST_NAMESPACES = ["common", "question"] as const;
/**
 * Namespaces only lazy parts use (the plan-review card, the settings and inbox pages) or rare
 * ones (a turn's notices and failures): fetched with them, and after the first screen, never
 * before the first card.
 */
export const PAGE_NAMESPACES = ["plan", "settings", "inbox", "notices"] as const;
export const NAMESPACES = [...FIRST_NAMESPACES, ...PAGE_NAMESPACES] as const;
export type Namespace = (typeof NAMESPACES)[number];
type FirstNamespace = (typeof FIRST_NAMESPACES)[number];
type PageNamespace = (typeof PAGE_NAMESPACES)[number];

/** One namespace's copy (plural keys differ by language). */
export type Copy = Record<string, string>;
/** The first screen's copy in one language. */
export type Messages = Record<FirstNamespace, Copy>;

// Each language's first-screen copy is its own chunk, so a first load fetches only the active
// one (issue 15).
const loaders: Record<Language, () => Promise<{ default: Messages }>> = {
  en: () => import("./locale.en.ts"),
  "zh-CN": () => import("./locale.zh-CN.ts"),
};

// The lazy parts' namespaces: a chunk per language and namespace (vite.config.ts names them copy.*).
const pageLoaders = import.meta.glob<Copy>(
  "../../../locales/*/{plan,settings,inbox,notices}.json",
  {
    import: "default",
  },
);

const loaded = new Map<Language, Promise<Messages>>();

/** The language's first-screen copy, fetched once; a failed fetch is forgotten for a retry. */
export function loadMessages(language: Language): Promise<Messages> {
  let pending = loaded.get(language);
  if (!pending) {
    pending = loaders[language]().then((module) => module.default);
    pending.catch(() => loaded.delete(language));
    loaded.set(language, pending);
  }
  return pending;
}

function isPageNamespace(namespace: string): namespace is PageNamespace {
  return (PAGE_NAMESPACES as readonly string[]).includes(namespace);
}

/** One namespace of one language, from whichever chunk holds it. */
export function loadCopy(language: Language, namespace: Namespace): Promise<Copy> {
  if (!isPageNamespace(namespace)) {
    return loadMessages(language).then((messages) => messages[namespace]);
  }
  const load = pageLoaders[`../../../locales/${language}/${namespace}.json`];
  if (!load) return Promise.reject(new Error(`no copy for ${language}/${namespace}`));
  return load();
}

/** Fetches every namespace of a language ahead of a switch to it. */
export function prefetchLanguage(language: Language): void {
  for (const namespace of NAMESPACES) loadCopy(language, namespace).catch(() => {});
}
