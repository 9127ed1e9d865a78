import { describe, expect, it } from "vitest";
import { splitMarkdownBlocks } from "./splitBlocks.ts";

describe("splitMarkdownBlocks", () => {
  it("[W1] cuts at headings but never inside fenced code", () => {
    const text = "# A\n\ntext\n\n```md\n# not a heading\n```\n\n## B\n\n- x";
    expect(splitMarkdownBlocks(text)).toEqual([
      "# A\n\ntext\n\n```md\n# not a heading\n```\n",
      "## B\n\n- x",
    ]);
  });

  it("[W1] loses no text", () => {
    const text = "intro\n# A\n~~~\n# x\n~~~\n# B\n";
    expect(splitMarkdownBlocks(text).join("\n")).toBe(text);
  });
});
