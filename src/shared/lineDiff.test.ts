import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DiffLine, diffLines, foldUnchanged } from "./lineDiff.ts";

const side = (lines: DiffLine[], drop: "add" | "del") =>
  lines
    .filter((l) => l.op !== drop)
    .map((l) => l.text)
    .join("\n");

describe("diffLines (X4)", () => {
  it("[X4] marks changed lines and keeps the rest", () => {
    expect(diffLines("# Plan\n1. cache\n2. test", "# Plan\n1. redis\n2. test\n3. docs")).toEqual([
      { op: "same", text: "# Plan" },
      { op: "del", text: "1. cache" },
      { op: "add", text: "1. redis" },
      { op: "same", text: "2. test" },
      { op: "add", text: "3. docs" },
    ]);
  });

  it("[X4] rebuilds both texts and finds the shortest edit for any input", () => {
    const text = fc
      .array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 30 })
      .map((l) => l.join("\n"));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const lines = diffLines(before, after);
        expect(side(lines, "add")).toBe(before);
        expect(side(lines, "del")).toBe(after);
        const same = lines.filter((l) => l.op === "same").length;
        // Shortest edit = longest common subsequence kept.
        expect(same).toBe(lcs(before.split("\n"), after.split("\n")));
      }),
    );
  });

  it("[X4] folds long unchanged stretches, keeping context around changes", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
    const after = before.replace("line 10", "line ten");
    const rows = foldUnchanged(diffLines(before, after), 2);
    expect(rows).toEqual([
      { op: "skip", count: 8 },
      { op: "same", text: "line 8" },
      { op: "same", text: "line 9" },
      { op: "del", text: "line 10" },
      { op: "add", text: "line ten" },
      { op: "same", text: "line 11" },
      { op: "same", text: "line 12" },
      { op: "skip", count: 7 },
    ]);
  });
});

function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1] ?? 0);
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}
