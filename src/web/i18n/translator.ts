import { PLACEHOLDER } from "../../shared/placeholders.ts";
import type { Language } from "./language.ts";
import type { Copy, Namespace } from "./resources.ts";

// What the page needs of a translation library, ≈1 kB where i18next and react-i18next were
// ≈19 kB of the first load (issue 15): flat keys, `ns:key`, {{name}} placeholders and plural
// forms by Intl.PluralRules, one namespace looked up when a key is missing from the ones asked.

/** The English files define the keys; the parity test holds zh-CN to them. */
type Resources = typeof import("./locale.en.ts").default & {
  plan: typeof import("../../../locales/en/plan.json");
  settings: typeof import("../../../locales/en/settings.json");
  inbox: typeof import("../../../locales/en/inbox.json");
  notices: typeof import("../../../locales/en/notices.json");
};
type PluralSuffix = "zero" | "one" | "two" | "few" | "many" | "other";
type Unplural<K extends string> = K extends `${infer Base}_${PluralSuffix}` ? Base : K;
type KeyOf<N extends Namespace> = Unplural<keyof Resources[N] & string>;
/** The plan card asks for question:planReview.*; those strings live in the plan namespace. */
const FALLBACK_NAMESPACE = "plan";
type Prefixed = { [N in Namespace]: `${N}:${KeyOf<N>}` }[Namespace];
/** A key of the namespaces a component asked for, of the fallback, or any `ns:key`. */
export type TranslationKey<N extends Namespace = "common"> =
  | KeyOf<N>
  | KeyOf<typeof FALLBACK_NAMESPACE>
  | Prefixed;
export type TranslationValues = Record<string, string | number | undefined>;
export type TFunction<N extends Namespace = "common"> = (
  key: TranslationKey<N>,
  values?: TranslationValues,
) => string;

export type CopyLoader = (language: Language, namespace: Namespace) => Promise<Copy>;

/**
 * The page's copy in its active language. Namespaces not given at start are read through
 * `load` on first use; a switch of language reads the new language's copy of every namespace
 * the page has, then shows it. Subscribers hear every change that can alter a string.
 */
export class Translator {
  language: Language;
  private readonly copies = new Map<string, Copy>();
  /**
   * Reads under way, by language and namespaces: the same promise while it lasts (a suspended
   * part throws it again on each try), forgotten when it settles.
   */
  private readonly loads = new Map<string, Promise<void>>();
  /** Reads that failed, by language/namespace: their keys show; asked again, they are retried. */
  private readonly failed = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private plurals: Intl.PluralRules;
  private revision = 0;

  constructor(
    language: Language,
    messages: Partial<Record<Namespace, Copy>>,
    private readonly load: CopyLoader,
    private readonly onLanguage?: (language: Language) => void,
  ) {
    this.language = language;
    this.plurals = new Intl.PluralRules(language);
    for (const [namespace, copy] of Object.entries(messages)) {
      if (copy) this.copies.set(`${language}/${namespace}`, copy);
    }
    onLanguage?.(language);
  }

  hasResourceBundle(language: Language, namespace: Namespace): boolean {
    return this.copies.has(`${language}/${namespace}`);
  }

  addResourceBundle(language: Language, namespace: Namespace, copy: Copy): void {
    this.copies.set(`${language}/${namespace}`, copy);
    this.changed();
  }

  /** True once the namespace's copy is in, or its load failed (its keys then show). */
  hasLoadedNamespace(namespace: Namespace): boolean {
    const id = `${this.language}/${namespace}`;
    return this.copies.has(id) || this.failed.has(id);
  }

  /** Reads what this language lacks of the namespaces; settles when each has loaded or failed. */
  loadNamespaces(namespaces: Namespace | readonly Namespace[]): Promise<void> {
    const list = typeof namespaces === "string" ? [namespaces] : namespaces;
    const [only] = list;
    if (list.length === 1 && only !== undefined) return this.loadOne(this.language, only);
    return this.pending(`${this.language}/${list.join()}`, () =>
      Promise.all(list.map((namespace) => this.loadOne(this.language, namespace))).then(() => {}),
    );
  }

  /** Reads the new language's copy of every namespace this page has, then shows it. */
  async changeLanguage(language: Language): Promise<void> {
    const namespaces = new Set<Namespace>();
    for (const id of this.copies.keys()) {
      if (id.startsWith(`${this.language}/`)) {
        namespaces.add(id.slice(this.language.length + 1) as Namespace);
      }
    }
    await Promise.all([...namespaces].map((namespace) => this.loadOne(language, namespace)));
    if (language === this.language) return;
    this.language = language;
    this.plurals = new Intl.PluralRules(language);
    this.onLanguage?.(language);
    this.changed();
  }

  /**
   * The string for `key`: looked up in its `ns:` prefix's namespace, else in each of
   * `namespaces` in turn, then in the fallback. A missing key shows as itself.
   */
  t(namespaces: readonly Namespace[], key: string, values?: TranslationValues): string {
    const colon = key.indexOf(":");
    const bare = colon > 0 ? key.slice(colon + 1) : key;
    const count = values?.count;
    const form = typeof count === "number" ? `${bare}_${this.plurals.select(count)}` : undefined;
    let text: string | undefined;
    if (colon > 0) text = this.lookup(key.slice(0, colon), bare, form);
    else {
      for (const namespace of namespaces) {
        text = this.lookup(namespace, bare, form);
        if (text !== undefined) break;
      }
      text ??= this.lookup(FALLBACK_NAMESPACE, bare, form);
    }
    if (text === undefined) return bare;
    return values ? interpolate(text, values) : text;
  }

  private lookup(namespace: string, key: string, form: string | undefined): string | undefined {
    const copy = this.copies.get(`${this.language}/${namespace}`);
    if (!copy) return undefined;
    // Own strings only: a key built from a server's value may name an Object property.
    return (form !== undefined && own(copy, form)) || own(copy, key);
  }

  /** A function over the given namespaces, new after each change so memoised parts re-render. */
  fixedT<N extends Namespace>(namespaces: readonly [N, ...Namespace[]]): TFunction<N> {
    return (key, values) => this.t(namespaces, key, values);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes with every change that can alter a string (for useSyncExternalStore). */
  getRevision = (): number => this.revision;

  private loadOne(language: Language, namespace: Namespace): Promise<void> {
    const id = `${language}/${namespace}`;
    if (this.copies.has(id)) return Promise.resolve();
    return this.pending(id, () => {
      this.failed.delete(id);
      return this.load(language, namespace).then(
        (copy) => this.addResourceBundle(language, namespace, copy),
        () => {
          this.failed.add(id);
          this.changed();
        },
      );
    });
  }

  private pending(id: string, start: () => Promise<void>): Promise<void> {
    let read = this.loads.get(id);
    if (!read) {
      read = start().finally(() => this.loads.delete(id));
      this.loads.set(id, read);
    }
    return read;
  }

  private changed(): void {
    this.revision += 1;
    for (const listener of this.listeners) listener();
  }
}

function own(copy: Copy, key: string): string | undefined {
  const text = Object.hasOwn(copy, key) ? copy[key] : undefined;
  return typeof text === "string" ? text : undefined;
}

function interpolate(text: string, values: TranslationValues): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]),
  );
}
