const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600_000],
  ["month", 30 * 24 * 3600_000],
  ["week", 7 * 24 * 3600_000],
  ["day", 24 * 3600_000],
  ["hour", 3600_000],
  ["minute", 60_000],
];

const formats = new Map<string, Intl.RelativeTimeFormat>();

function formatFor(language: string): Intl.RelativeTimeFormat {
  let format = formats.get(language);
  if (!format) {
    format = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
    formats.set(language, format);
  }
  return format;
}

/** "5 minutes ago" / "5 分钟前": the browser's own wording for the language. */
export function formatRelativeTime(at: number, now: number, language: string): string {
  const format = formatFor(language);
  const diff = at - now;
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size) return format.format(Math.round(diff / size), unit);
  }
  return format.format(0, "second");
}
