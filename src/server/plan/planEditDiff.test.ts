import { planEditDiff } from "./planEditDiff.ts";

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i}`);

describe("planEditDiff", () => {
  it("[V6] marks the person's edits with three unchanged lines around them", () => {
    const before = lines(12).join("\n");
    const after = lines(12)
      .map((line) => (line === "line 6" ? "line six" : line))
      .join("\n");
    expect(planEditDiff(before, after)).toBe(
      [
        " line 3",
        " line 4",
        " line 5",
        "-line 6",
        "+line six",
        " line 7",
        " line 8",
        " line 9",
      ].join("\n"),
    );
  });

  it("[V6] keeps the unchanged lines between two edits, and says nothing when nothing changed", () => {
    expect(planEditDiff("a\nb\nc", "A\nb\nC")).toBe("-a\n+A\n b\n-c\n+C");
    expect(planEditDiff("same\ntext", "same\ntext")).toBe("");
  });
});
