/**
 * A span of time as words in the page's language ("1 minute", "90 seconds", "5 分钟"): whole
 * minutes when it is a whole number of them, else seconds.
 */
export function formatDuration(ms: number, language: string): string {
  const wholeMinutes = ms >= 60_000 && ms % 60_000 === 0;
  const value = wholeMinutes ? ms / 60_000 : Math.round(ms / 1000);
  return new Intl.NumberFormat(language, {
    style: "unit",
    unit: wholeMinutes ? "minute" : "second",
    unitDisplay: "long",
  }).format(value);
}
