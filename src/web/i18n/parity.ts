/** W2: pure checks behind the parity test, kept apart so they can be tested on small inputs. */

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /{{\s*([\w.]+)\s*(?:,[^}]*)?}}/g;

export type Messages = Record<string, string>;

export function flatten(value: unknown, prefix = "", into: Messages = {}): Messages {
  if (typeof value === "string") {
    into[prefix] = value;
    return into;
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      flatten(child, prefix ? `${prefix}.${key}` : key, into);
    }
    return into;
  }
  throw new Error(`"${prefix}" holds ${JSON.stringify(value)}, not a message`);
}

function baseKey(key: string): string {
  return key.replace(PLURAL_SUFFIX, "");
}

function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? "");
}

interface Group {
  forms: Set<string>;
  placeholders: Set<string>;
}

function groups(messages: Messages): Map<string, Group> {
  const result = new Map<string, Group>();
  for (const [key, text] of Object.entries(messages)) {
    const base = baseKey(key);
    const group = result.get(base) ?? { forms: new Set(), placeholders: new Set() };
    const suffix = PLURAL_SUFFIX.exec(key)?.[1];
    if (suffix) group.forms.add(suffix);
    for (const name of placeholders(text)) group.placeholders.add(name);
    result.set(base, group);
  }
  return result;
}

function pluralForms(language: string): string[] {
  return new Intl.PluralRules(language).resolvedOptions().pluralCategories as string[];
}

/** Every problem that would make one language show a key, a hole or a wrong plural. */
export function parityProblems(namespace: string, byLanguage: Record<string, Messages>): string[] {
  const problems: string[] = [];
  const languages = Object.keys(byLanguage);
  const grouped = new Map(languages.map((lng) => [lng, groups(byLanguage[lng] ?? {})]));
  const allBases = new Set(languages.flatMap((lng) => [...(grouped.get(lng)?.keys() ?? [])]));
  for (const base of [...allBases].sort()) {
    const present = languages.filter((lng) => grouped.get(lng)?.has(base));
    for (const lng of languages) {
      if (!present.includes(lng)) problems.push(`${namespace}:${base} is missing in ${lng}`);
    }
    const reference = present[0];
    const referenceGroup = reference ? grouped.get(reference)?.get(base) : undefined;
    for (const lng of present) {
      const group = grouped.get(lng)?.get(base);
      if (!group || !referenceGroup) continue;
      const a = [...referenceGroup.placeholders].sort().join(",");
      const b = [...group.placeholders].sort().join(",");
      if (a !== b) {
        problems.push(
          `${namespace}:${base} placeholders differ: ${reference} {${a}} vs ${lng} {${b}}`,
        );
      }
      const isPlural = [...grouped.values()].some((g) => (g.get(base)?.forms.size ?? 0) > 0);
      if (!isPlural) continue;
      for (const form of pluralForms(lng)) {
        if (!group.forms.has(form)) {
          problems.push(`${namespace}:${base}_${form} is missing in ${lng}`);
        }
      }
    }
  }
  return problems;
}
