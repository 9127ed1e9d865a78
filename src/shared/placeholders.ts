/** `{{name}}` in a wording: the catalogs' and the server's notices' one syntax. */
export const PLACEHOLDER = /{{\s*(\w+)\s*}}/g;

/** The names a wording fills in, in order. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}
