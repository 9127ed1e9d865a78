import type { StoredEntry } from "../../protocol/index.ts";

/** One piece of another session's conversation, as ranking and hand-offs see it. */
export interface Passage {
  readonly seq: number;
  readonly role: "user" | "assistant" | "tool";
  readonly text: string;
}

/** Long tool output says little more past this point and would crowd out everything else. */
export const MAX_PASSAGE_CHARS = 4_000;

/**
 * The readable parts of a session log: what the user wrote, what the assistant answered,
 * which tools it called and what they returned. Runtime notices and bookkeeping are left out.
 */
export function passagesOf(entries: readonly StoredEntry[]): Passage[] {
  const passages: Passage[] = [];
  for (const { seq, entry } of entries) {
    switch (entry.kind) {
      case "user.message":
        if (!entry.synthetic) passages.push({ seq, role: "user", text: cut(entry.text) });
        break;
      case "assistant.message":
        passages.push({ seq, role: "assistant", text: cut(entry.text) });
        break;
      case "tool.call":
        passages.push({
          seq,
          role: "assistant",
          text: cut(`Called ${entry.name} with ${JSON.stringify(entry.input)}`),
        });
        break;
      case "tool.result":
        passages.push({
          seq,
          role: "tool",
          text: cut(`${entry.name}${entry.isError ? " failed" : " returned"}: ${entry.output}`),
        });
        break;
      case "plan.approved":
        passages.push({ seq, role: "user", text: cut(`Approved plan:\n${entry.plan}`) });
        break;
      default:
        break;
    }
  }
  return passages.filter((passage) => passage.text.trim() !== "");
}

export function formatPassage(passage: Passage): string {
  return `[#${passage.seq} ${passage.role}]\n${passage.text}`;
}

export function cut(text: string, max = MAX_PASSAGE_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 12))} …(cut here)`;
}
