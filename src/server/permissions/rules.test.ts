import { callPath, formatRule, parseRule, ruleMatches } from "./rules.ts";

describe("project rule syntax", () => {
  it("reads a bare tool name and a tool narrowed by a path glob", () => {
    expect(parseRule("Write")).toEqual({ tool: "Write" });
    expect(parseRule(" Write( src/** ) ")).toEqual({ tool: "Write", glob: "src/**" });
    expect(parseRule("Write()")).toEqual({ tool: "Write" });
    expect(parseRule("")).toBeUndefined();
    expect(parseRule("two words")).toBeUndefined();
    expect(formatRule({ tool: "Edit", glob: "a/b.ts" })).toBe("Edit(a/b.ts)");
  });

  it.each<[string, string, boolean]>([
    ["src/**", "src/a.ts", true],
    ["src/**", "src/deep/er/a.ts", true],
    ["src/**", "srcs/a.ts", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/deep/a.ts", false],
    ["**/*.md", "README.md", true],
    ["**/*.md", "docs/guide/intro.md", true],
    ["?.txt", "a.txt", true],
    ["?.txt", "ab.txt", false],
    ["notes (old).md", "notes (old).md", true],
    ["a.b", "axb", false],
    ["src/{a,b}.ts", "src/b.ts", true],
    ["src/{a,b}.ts", "src/c.ts", false],
    ["**/*.{ts,tsx}", "web/App.tsx", true],
    ["docs/[ab].md", "docs/b.md", true],
    ["**", ".zcode/plans/p.md", true],
  ])("[R10] glob %s against %s → %s", (glob, path, expected) => {
    expect(ruleMatches({ tool: "Write", glob }, "Write", path)).toBe(expected);
  });

  it("matches by tool name, any tool for *, and needs a path for a glob", () => {
    expect(ruleMatches({ tool: "Write" }, "Write", undefined)).toBe(true);
    expect(ruleMatches({ tool: "Write" }, "Edit", "a")).toBe(false);
    expect(ruleMatches({ tool: "*" }, "Edit", undefined)).toBe(true);
    expect(ruleMatches({ tool: "Write", glob: "**" }, "Write", undefined)).toBe(false);
  });

  it("[R4] compares workspace-relative paths, so escapes never match an inside glob", () => {
    expect(callPath("/ws", { path: "./src//a.ts" })).toBe("src/a.ts");
    expect(callPath("/ws", { path: "/ws/src/a.ts" })).toBe("src/a.ts");
    expect(callPath("/ws", { file_path: "b.md" })).toBe("b.md");
    expect(callPath("/ws", { path: "../other/src/a.ts" })).toBe("../other/src/a.ts");
    expect(callPath("/ws", { pattern: "*" })).toBeUndefined();
    expect(ruleMatches({ tool: "Write", glob: "**" }, "Write", "../x")).toBe(false);
    expect(ruleMatches({ tool: "Write", glob: "src/**" }, "Write", "../other/src/a.ts")).toBe(
      false,
    );
  });
});
