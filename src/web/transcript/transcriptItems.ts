import type { SessionEntry, StoredEntry } from "../../protocol/index.ts";

type EntryOf<K extends SessionEntry["kind"]> = Extract<SessionEntry, { kind: K }>;

/** What the transcript draws, one item per visible entry; tool calls carry their result. */
export type TranscriptItem =
  | { kind: "user"; seq: number; entry: EntryOf<"user.message"> }
  | { kind: "assistant"; seq: number; entry: EntryOf<"assistant.message"> }
  | {
      kind: "tool";
      seq: number;
      call: EntryOf<"tool.call"> | null;
      result: EntryOf<"tool.result"> | null;
    }
  | { kind: "notice"; seq: number; entry: EntryOf<"notice"> }
  | { kind: "turnEnded"; seq: number; entry: EntryOf<"turn.ended"> }
  | { kind: "resolved"; seq: number; entry: EntryOf<"interaction.resolved"> }
  | { kind: "planApproved"; seq: number; entry: EntryOf<"plan.approved"> }
  | { kind: "modeChanged"; seq: number; entry: EntryOf<"session.modeChanged"> }
  | { kind: "modelChanged"; seq: number; entry: EntryOf<"session.modelChanged"> };

/** Entries that only move state (requests, countdowns, drafts, todos) draw nothing here. */
export function transcriptItems(entries: readonly StoredEntry[]): TranscriptItem[] {
  const results = new Map<string, EntryOf<"tool.result">>();
  const calls = new Set<string>();
  for (const { entry } of entries) {
    if (entry.kind === "tool.result") results.set(entry.callId, entry);
    if (entry.kind === "tool.call") calls.add(entry.callId);
  }
  const items: TranscriptItem[] = [];
  for (const { seq, entry } of entries) {
    switch (entry.kind) {
      case "user.message":
        items.push({ kind: "user", seq, entry });
        break;
      case "assistant.message":
        if (entry.text.trim() !== "") items.push({ kind: "assistant", seq, entry });
        break;
      case "tool.call":
        items.push({ kind: "tool", seq, call: entry, result: results.get(entry.callId) ?? null });
        break;
      case "tool.result":
        if (!calls.has(entry.callId)) items.push({ kind: "tool", seq, call: null, result: entry });
        break;
      case "notice":
        items.push({ kind: "notice", seq, entry });
        break;
      case "turn.ended":
        if (entry.reason === "error" || entry.reason === "cancelled") {
          items.push({ kind: "turnEnded", seq, entry });
        }
        break;
      case "interaction.resolved":
        items.push({ kind: "resolved", seq, entry });
        break;
      case "plan.approved":
        items.push({ kind: "planApproved", seq, entry });
        break;
      case "session.modeChanged":
        items.push({ kind: "modeChanged", seq, entry });
        break;
      case "session.modelChanged":
        items.push({ kind: "modelChanged", seq, entry });
        break;
      default:
        break;
    }
  }
  return items;
}
