import { diffLines } from "../../shared/lineDiff.ts";

/** V9: how many lines a revision added and removed against the one before it. */
export function changeCounts(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const { op } of diffLines(before, after)) {
    if (op === "add") added++;
    else if (op === "del") removed++;
  }
  return { added, removed };
}
