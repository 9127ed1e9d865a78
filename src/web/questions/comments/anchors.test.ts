import { describe, expect, it } from "vitest";
import { sourceBlocks } from "../../markdown/sourceBlocks.ts";
import {
  anchorFor,
  type BlockInfo,
  followUp,
  linesOfBlocks,
  locateAnchor,
  quoteLines,
} from "./anchors.ts";

const block = (
  headingPath: string[],
  indexUnderHeading: number,
  text: string,
  kind: BlockInfo["kind"] = "item",
): BlockInfo => ({
  kind,
  headingPath,
  indexUnderHeading,
  text,
});

describe("comment anchors", () => {
  const blocks = [
    block([], 0, "Plan", "heading"),
    block(["Plan"], 0, "Steps", "heading"),
    block(["Plan", "Steps"], 0, "Add the migration"),
    block(["Plan", "Steps"], 1, "Backfill the rows"),
  ];

  it("[V1] finds its block again by heading path, place and text, even after a block is inserted above it", () => {
    const anchor = anchorFor(blocks[3]!, "the rows", { start: 6, end: 6 });
    expect(anchor).toMatchObject({
      headingPath: ["Plan", "Steps"],
      blockIndex: 1,
      quote: "the rows",
    });
    expect(locateAnchor(anchor, blocks)).toBe(3);
    const shifted = [
      ...blocks.slice(0, 2),
      block(["Plan", "Steps"], 0, "Back up first"),
      ...blocks.slice(2).map((b) => ({ ...b, indexUnderHeading: b.indexUnderHeading + 1 })),
    ];
    expect(locateAnchor(anchor, shifted)).toBe(4);
  });

  it("[V3] an earlier comment is unchanged on the same text, changed on a rewritten block, removed when its section is gone", () => {
    const anchor = anchorFor(blocks[3]!, "the rows", { start: 6, end: 6 });
    expect(followUp(anchor, blocks)).toEqual({ status: "unchanged", index: 3 });
    const rewritten = [
      ...blocks.slice(0, 3),
      block(["Plan", "Steps"], 1, "Backfill the rows in batches"),
    ];
    expect(followUp(anchor, rewritten)).toEqual({ status: "changed", index: 3 });
    const reworded = [...blocks.slice(0, 3), block(["Plan", "Steps"], 1, "Copy old data over")];
    expect(followUp(anchor, reworded)).toEqual({ status: "changed", index: 3 });
    expect(followUp(anchor, blocks.slice(0, 1))).toEqual({ status: "removed", index: -1 });
  });

  it("[V2] pairs rendered blocks with plan-file lines; a nested list ends its parent item; a quote narrows the lines", () => {
    const plan = [
      "# Plan",
      "",
      "1. Gather:",
      "   - the README",
      "   - the files",
      "2. Write the guide",
      "   in three parts",
      "",
      "| a | b |",
      "| - | - |",
      "| 1 | 2 |",
    ].join("\n");
    const source = sourceBlocks(plan);
    expect(source.map((b) => [b.kind, b.start, b.end])).toEqual([
      ["heading", 1, 1],
      ["item", 3, 3],
      ["item", 4, 4],
      ["item", 5, 5],
      ["item", 6, 7],
      ["row", 9, 9],
      ["row", 11, 11],
    ]);
    const rendered: BlockInfo[] = source.map((b, i) => block([], i, "", b.kind));
    expect(linesOfBlocks(rendered, source)[4]).toEqual({ start: 6, end: 7 });
    expect(quoteLines(plan.split("\n"), { start: 6, end: 7 }, "in three parts")).toEqual({
      start: 7,
      end: 7,
    });
  });
});
