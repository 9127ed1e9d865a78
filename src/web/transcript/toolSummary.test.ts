import { describe, expect, it } from "vitest";
import { summarizeToolInput } from "./toolSummary.ts";

describe("summarizeToolInput", () => {
  it("[W1] prefers the field that says what the tool acts on", () => {
    expect(summarizeToolInput({ file_path: "src/a.ts", limit: 10 })).toBe("src/a.ts");
    expect(summarizeToolInput({ command: "npm   test\n--watch" })).toBe("npm test --watch");
    expect(summarizeToolInput({ questions: [{ question: "Which DB?" }] })).toBe("Which DB?");
  });

  it("falls back to compact JSON and shortens long text", () => {
    expect(summarizeToolInput({ a: 1 })).toBe('{"a":1}');
    const long = summarizeToolInput({ pattern: "x".repeat(200) });
    expect(long).toHaveLength(96);
    expect(long.endsWith("…")).toBe(true);
    expect(summarizeToolInput(undefined)).toBe("");
  });
});
