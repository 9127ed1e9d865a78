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
    const value = record[key];
    if (typeof value === "string" && value.trim() !== "") return oneLine(value);
  }
  if (Array.isArray(record.questions)) {
    const first = record.questions[0] as { question?: unknown } | undefined;
    if (typeof first?.question === "string") return oneLine(first.question);
  }
  if (Array.isArray(record.todos)) return oneLine(`${record.todos.length} todos`);
  return oneLine(JSON.stringify(input));
}

export function formatToolInput(input: unknown): string {
  if (typeof input === "string") return input;
  return JSON.stringify(input, null, 2) ?? "";
}
