import { describe, expect, it } from "vitest";
import {
  SOFT_BLOCK_CHARS,
  splitLazily,
  splitMarkdown,
  splitMarkdownBlocks,
} from "./splitBlocks.ts";

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
  const longList = Array.from({ length: 3000 }, (_, i) => `${i + 1}. step ${i} of the plan`).join(
    "\n",
  );

  it("[W1] splits a long text only as far as the pieces asked for, and the same pieces in the end", () => {
    const split = splitLazily(longList);
    expect(split.has(0)).toBe(true);
    // The first screen splits its own start, not the whole plan.
    expect(split.blocks.length).toBe(1);
    expect(split.blocks[0]?.length).toBeLessThan(SOFT_BLOCK_CHARS + 100);
    expect(split.has(1)).toBe(true);
    expect(split.blocks.length).toBe(2);
    expect(split.has(Number.POSITIVE_INFINITY)).toBe(false);
    expect(split.blocks).toEqual(splitMarkdown(longList).blocks);
    expect(split.blocks.join("\n")).toBe(longList);
  });

  it("[W1] a reference defined at the end of a long text reaches its first piece", () => {
    const text = `See [the design][d].\n\n${longList}\n\n[d]: https://example.com/design`;
    const split = splitLazily(text);
    expect(split.has(0)).toBe(true);
    expect(split.definitions).toBe("[d]: https://example.com/design");
  });
});
