import { describe, expect, it } from "vitest";
import { formatToolInput, summarizeToolInput } from "./toolSummary.ts";

describe("summarizeToolInput", () => {
  it("[W1] prefers the field that says what the tool acts on", () => {
    expect(summarizeToolInput({ file_path: "src/a.ts", limit: 10 })).toBe("src/a.ts");
    expect(summarizeToolInput({ command: "npm   test\n--watch" })).toBe("npm test --watch");
    expect(summarizeToolInput({ questions: [{ question: "Which DB?" }] })).toBe("Which DB?");
  });

  it("[W1][U3] a plan is summarised by its title, without its heading marks, as the inbox names it", () => {
    expect(summarizeToolInput({ plan: "\n## Plan: a notes file ##\n\n**Goal:** add `a.md`" })).toBe(
      "Plan: a notes file",
    );
    expect(summarizeToolInput({ plan: "Move the cache\nthen rename it" })).toBe("Move the cache");
  });

  it("falls back to compact JSON and shortens long text", () => {
    expect(summarizeToolInput({ a: 1 })).toBe('{"a":1}');
    const long = summarizeToolInput({ pattern: "x".repeat(200) });
    expect(long).toHaveLength(96);
    expect(long.endsWith("…")).toBe(true);
    expect(summarizeToolInput(undefined)).toBe("");
  });

  it("[W1] a plan the server cut for the wire summarises by its start and shows, expanded, how much is left out", () => {
    const input = { plan: { clipped: "# Plan: ship it\n\n1. Build", moreChars: 286_011 } };
    expect(summarizeToolInput(input)).toBe("Plan: ship it");
    const shown = formatToolInput(input, (count) => `(${count} more characters not shown here)`);
    expect(JSON.parse(shown)).toEqual({
      plan: "# Plan: ship it\n\n1. Build… (286011 more characters not shown here)",
    });
    // An object that only looks like one in part is shown as it is.
    expect(JSON.parse(formatToolInput({ clipped: "x", moreChars: 1, extra: true }))).toEqual({
      clipped: "x",
      moreChars: 1,
      extra: true,
    });
  });
});
