// Issue 15: markdown-it decodes `&name;` with entities' table of every HTML name (~2,000, 19 kB
// raw), most of which no plan uses. The build points markdown-it's `entities` import here
// (scripts/markdownItEntities.ts): the names plans use decode from this table, the rest once
// the full table is fetched, which MarkdownRenderer waits for before it parses a text naming one.
export const COMMON_ENTITIES: ReadonlyMap<string, string> = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
  ["nbsp", "\u00a0"],
  ["copy", "©"],
  ["reg", "®"],
  ["trade", "™"],
  ["hellip", "…"],
  ["mdash", "—"],
  ["ndash", "–"],
  ["lsquo", "‘"],
  ["rsquo", "’"],
  ["ldquo", "“"],
  ["rdquo", "”"],
  ["laquo", "«"],
  ["raquo", "»"],
  ["times", "×"],
  ["divide", "÷"],
  ["middot", "·"],
  ["bull", "•"],
  ["deg", "°"],
  ["plusmn", "±"],
  ["minus", "−"],
  ["le", "≤"],
  ["ge", "≥"],
  ["ne", "≠"],
  ["larr", "←"],
  ["rarr", "→"],
  ["uarr", "↑"],
  ["darr", "↓"],
  ["harr", "↔"],
  ["lArr", "⇐"],
  ["rArr", "⇒"],
  ["hArr", "⇔"],
  ["check", "✓"],
  ["cross", "✗"],
  ["sect", "§"],
  ["para", "¶"],
  ["euro", "€"],
  ["pound", "£"],
  ["yen", "¥"],
  ["cent", "¢"],
  ["micro", "µ"],
  ["ensp", "\u2002"],
  ["emsp", "\u2003"],
  ["thinsp", "\u2009"],
  ["shy", "\u00ad"],
  ["zwj", "\u200d"],
  ["zwnj", "\u200c"],
]);

/** What markdown-it hands to decodeHTMLStrict: `&name;`, and in links a `&#…;` it finds too long. */
const REFERENCE = /&([a-z#][a-z0-9]{1,31});/gi;
/** The numeric references markdown-it decodes itself. */
const NUMERIC = /^#(?:x[a-f0-9]{1,8}|[0-9]{1,8})$/i;

let full: ((reference: string) => string) | null = null;
let loading: Promise<void> | null = null;
let settled = false;

/** The one function markdown-it imports from entities: a reference decoded, or as written. */
export function decodeHTMLStrict(reference: string): string {
  return COMMON_ENTITIES.get(reference.slice(1, -1)) ?? full?.(reference) ?? reference;
}

/** Fetches the full table once; after a failed fetch rare names show as written, not retried. */
export function loadNamedEntities(): Promise<void> {
  loading ??= import("./entityTable.ts")
    .then(
      (module) => {
        full = module.decodeHTMLStrict;
      },
      () => {},
    )
    .then(() => {
      settled = true;
    });
  return loading;
}

/**
 * The full table's load when `text` holds a reference the small table lacks, else null; code
 * spans count too (`p = &buf;`): this scans, it does not parse.
 */
export function namedEntitiesFor(text: string): Promise<void> | null {
  if (settled || !text.includes("&")) return null;
  for (const [, name = ""] of text.matchAll(REFERENCE)) {
    if (!COMMON_ENTITIES.has(name) && !NUMERIC.test(name)) return loadNamedEntities();
  }
  return null;
}
