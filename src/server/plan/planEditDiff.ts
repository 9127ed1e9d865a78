import { diffLines } from "../../shared/lineDiff.ts";

const CONTEXT = 3;
const MARK = { same: " ", del: "-", add: "+" } as const;

/**
 * V6: what the person changed in a plan, as diff lines (` ` kept, `-` removed, `+` added),
 * so the model can see their edits; unchanged lines are kept only three around the changes.
 */
export function planEditDiff(before: string, after: string): string {
  const lines = diffLines(before, after);
  const first = lines.findIndex((line) => line.op !== "same");
  if (first < 0) return "";
  const last = lines.findLastIndex((line) => line.op !== "same");
  return lines
    .slice(Math.max(0, first - CONTEXT), last + CONTEXT + 1)
    .map((line) => `${MARK[line.op]}${line.text}`)
    .join("\n");
}
