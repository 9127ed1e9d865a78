/**
 * Issue 15: a tool call's input as clients are sent it. A string longer than WIRE_INPUT_CHARS
 * (a plan, a file's whole content) goes as its start and the count of what is left out: the
 * transcript shows an input collapsed, a plan also arrives whole with its question (an MCP
 * agent's review_plan reached the page twice, 2 × 295 KB), and the log keeps every character
 * (a restart runs the call again from it, Q5).
 */
export const WIRE_INPUT_CHARS = 4_000;

/** A long string of a tool call's input, cut for the wire. */
export interface ClippedString {
  clipped: string;
  moreChars: number;
}

export function isClippedString(value: unknown): value is ClippedString {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { clipped, moreChars } = value as Partial<ClippedString>;
  return (
    typeof clipped === "string" && typeof moreChars === "number" && Object.keys(value).length === 2
  );
}

/** Deeper than this, an input is sent as it is: a hostile one cannot make the walk overflow. */
const MAX_DEPTH = 64;

/** The value with each long string clipped; the value itself when none is long. */
export function clipLongStrings(value: unknown, depth = 0): unknown {
  if (typeof value === "string") {
    return value.length > WIRE_INPUT_CHARS
      ? { clipped: value.slice(0, WIRE_INPUT_CHARS), moreChars: value.length - WIRE_INPUT_CHARS }
      : value;
  }
  if (depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (const [index, item] of value.entries()) {
      const clipped = clipLongStrings(item, depth + 1);
      if (clipped === item) continue;
      copy ??= [...value];
      copy[index] = clipped;
    }
    return copy ?? value;
  }
  if (typeof value === "object" && value !== null) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const clipped = clipLongStrings(item, depth + 1);
      if (clipped === item) continue;
      copy ??= { ...value };
      copy[key] = clipped;
    }
    return copy ?? value;
  }
  return value;
}
