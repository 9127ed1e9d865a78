import type { Language } from "./language.ts";

export const NAMESPACES = ["common", "question", "plan", "settings", "inbox"] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** One language's copy, every namespace (plural keys differ by language). */
export type Messages = Record<Namespace, Record<string, string>>;

// Each language is its own chunk, so a first load fetches only the active one (issue 15).
const loaders: Record<Language, () => Promise<{ default: Messages }>> = {
  en: () => import("./locale.en.ts"),
  "zh-CN": () => import("./locale.zh-CN.ts"),
};

const loaded = new Map<Language, Promise<Messages>>();

/** The language's copy, fetched once; a failed fetch is forgotten so a retry can succeed. */
export function loadMessages(language: Language): Promise<Messages> {
  let pending = loaded.get(language);
  if (!pending) {
    pending = loaders[language]().then((module) => module.default);
    pending.catch(() => loaded.delete(language));
    loaded.set(language, pending);
  }
  return pending;
}

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    // The English files define the keys; the parity test holds zh-CN to them.
    resources: typeof import("./locale.en.ts").default;
  }
}
