import { type ClippedString, isClippedString, markdownTitle } from "../../protocol/index.ts";

const SUMMARY_KEYS = [
  "command",
  "file_path",
  "path",
  "pattern",
  "query",
  "url",
  "description",
  "plan",
  "prompt",
];

const MAX_SUMMARY = 96;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_SUMMARY ? `${flat.slice(0, MAX_SUMMARY - 1)}…` : flat;
}

/** A one-line hint of what a tool call acts on, shown while the call is collapsed. */
export function summarizeToolInput(input: unknown): string {
  if (input === null || input === undefined) return "";
  if (typeof input === "string") return oneLine(input);
  if (typeof input !== "object") return oneLine(String(input));
  const record = input as Record<string, unknown>;
  for (const key of SUMMARY_KEYS) {
    const found = record[key];
    const value = isClippedString(found) ? found.clipped : found;
    if (typeof value !== "string" || value.trim() === "") continue;
    // A plan is named by its title, as the inbox names it, not by its first marks of markdown.
    return oneLine(key === "plan" ? markdownTitle(value) : value);
  }
  if (Array.isArray(record.questions)) {
    const first = record.questions[0] as { question?: unknown } | undefined;
    if (typeof first?.question === "string") return oneLine(first.question);
  }
  if (Array.isArray(record.todos)) return oneLine(`${record.todos.length} todos`);
  return oneLine(JSON.stringify(input));
}

/**
 * The input as the transcript shows it expanded. A string the server clipped for the wire
 * (protocol/wireInput.ts) ends with `clippedNote`, which says how much is left out.
 */
export function formatToolInput(
  input: unknown,
  clippedNote: (moreChars: number) => string = String,
): string {
  const shown = (clip: ClippedString) => `${clip.clipped}… ${clippedNote(clip.moreChars)}`;
  if (typeof input === "string") return input;
  if (isClippedString(input)) return shown(input);
  return (
    JSON.stringify(
      input,
      (_key, value: unknown) => (isClippedString(value) ? shown(value) : value),
      2,
    ) ?? ""
  );
}
