import { afterEach, describe, expect, it, vi } from "vitest";
import { sourceBlocks } from "../../markdown/sourceBlocks.ts";
import type { DomBlock } from "./domBlocks.ts";

const parse = vi.hoisted(() => vi.fn<(text: string) => Promise<unknown>>());
vi.mock("../../markdown/sourceBlocksOffThread.ts", () => ({ sourceBlocksOffThread: parse }));

const { linesFor, warmPlanLines } = await import("./planLines.ts");

const PLAN = "# Plan\n\n1. Add the migration\n2. Backfill the rows\n";
const blocks: DomBlock[] = [
  { kind: "heading", elements: [], headingPath: [], indexUnderHeading: 0, text: "Plan" },
  {
    kind: "item",
    elements: [],
    headingPath: ["Plan"],
    indexUnderHeading: 0,
    text: "Add the migration",
  },
  {
    kind: "item",
    elements: [],
    headingPath: ["Plan"],
    indexUnderHeading: 1,
    text: "Backfill the rows",
  },
];

afterEach(() => {
  parse.mockReset();
  vi.useRealTimers();
});

describe("plan lines (V2)", () => {
  it("[V2] a parse that fails rejects the comment's lines with no unhandled rejection, and the next call parses again", async () => {
    const plan = `${PLAN}\nfails once`;
    parse.mockRejectedValueOnce(new Error("parse failed"));
    parse.mockImplementation(async (text) => sourceBlocks(text));
    await expect(linesFor(plan, blocks, 2, 2, "Backfill the rows")).rejects.toThrow("parse failed");
    // Not the failed promise kept for this plan: parsed again, and the lines are right.
    await expect(linesFor(plan, blocks, 2, 2, "Backfill the rows")).resolves.toEqual({
      start: 4,
      end: 4,
    });
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it("[V2] a failed parse while idle (warm-up) is not an unhandled rejection, and adding a comment parses again", async () => {
    vi.useFakeTimers();
    const plan = `${PLAN}\nfails while warming`;
    const unhandled = vi.fn();
    process.on("unhandledRejection", unhandled);
    try {
      parse.mockRejectedValueOnce(new Error("parse failed"));
      parse.mockImplementation(async (text) => sourceBlocks(text));
      warmPlanLines(plan);
      await vi.advanceTimersByTimeAsync(400);
      vi.useRealTimers();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
      await expect(linesFor(plan, blocks, 1, 1, "Add the migration")).resolves.toEqual({
        start: 3,
        end: 3,
      });
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      process.off("unhandledRejection", unhandled);
    }
  });
});
