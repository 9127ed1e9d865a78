import { clipLongStrings, type StoredEntry } from "../../protocol/index.ts";

/** An entry as clients are sent it: a tool call's long input strings cut (protocol/wireInput.ts). */
export function wireEntry(stored: StoredEntry): StoredEntry {
  const { entry } = stored;
  if (entry.kind !== "tool.call") return stored;
  const input = clipLongStrings(entry.input);
  return input === entry.input ? stored : { ...stored, entry: { ...entry, input } };
}
