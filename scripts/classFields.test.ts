import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { assignClassFields } from "./classFields.ts";

const require = createRequire(import.meta.url);
const installed = readFileSync(
  join(dirname(require.resolve("markdown-it/package.json")), "dist/markdown-it.mjs"),
  "utf8",
);

describe("markdown-it class fields (R5, issue 15)", () => {
  it("[R5] every field of the installed markdown-it's classes is assigned directly, with its value", () => {
    const before = installed.match(/_defineProperty\(\s*this\b/g)?.length ?? 0;
    // The helper is what the build has today; if an upgrade drops it, this transform is moot.
    expect(before).toBeGreaterThan(20);
    const after = assignClassFields(installed);
    expect(after).not.toMatch(/_defineProperty\(\s*this\b/);
    expect(after).toContain("this.map = null;");
    expect(after).toContain("this.linkify = new LinkifyIt();");
    expect(after).toContain("this.inline = new ParserInline();");
  });

  it("[R5] a field whose value spans calls or a comment before its name is rewritten whole", () => {
    const code = [
      "class A { constructor() {",
      '  _defineProperty(this, /** docs; with a semicolon */ "rules", Object.assign({}, base));',
      '  _defineProperty(this, "x", -1);',
      "} }",
      '_defineProperty(A, "Static", B);',
    ].join("\n");
    expect(assignClassFields(code)).toBe(
      [
        "class A { constructor() {",
        "  this.rules = Object.assign({}, base);",
        "  this.x = -1;",
        "} }",
        '_defineProperty(A, "Static", B);',
      ].join("\n"),
    );
  });
});
