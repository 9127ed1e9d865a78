export const LANGUAGES = ["en", "zh-CN"] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_STORAGE_KEY = "plangate.language";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** W2: a saved choice wins; otherwise the first browser language that we can serve. */
export function detectLanguage(
  browserLanguages: readonly string[],
  saved: string | null,
): Language {
  if (isLanguage(saved)) return saved;
  for (const tag of browserLanguages) {
    const lower = tag.toLowerCase();
    if (lower.startsWith("zh")) return "zh-CN";
    if (lower.startsWith("en")) return "en";
  }
  return "en";
}
