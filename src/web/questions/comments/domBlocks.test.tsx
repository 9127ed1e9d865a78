// @vitest-environment jsdom
import { render, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import MarkdownRenderer from "../../markdown/MarkdownRenderer.tsx";
import { sourceBlocks } from "../../markdown/sourceBlocks.ts";
import { SOFT_BLOCK_CHARS } from "../../markdown/splitBlocks.ts";
import { linesOfBlocks } from "./anchors.ts";
import { readDomBlocks, readDomBlocksInSteps } from "./domBlocks.ts";

// Long enough that the renderer cuts the table between rows and the code block in two.
const rows = Array.from(
  { length: 120 },
  (_, i) => `| file${i}.ts | change number ${i} of the migration |`,
);
const code = Array.from({ length: 160 }, (_, i) => `const value${i} = compute(${i}); // step ${i}`);
const PLAN = [
  "# Plan",
  "",
  "## Files",
  "",
  "| File | Change |",
  "| --- | --- |",
  ...rows,
  "",
  "## Code",
  "",
  "```ts",
  ...code,
  "```",
  "",
  "Done.",
].join("\n");

describe("rendered blocks", () => {
  it("[V1][V2] a table and a code block cut into pieces by the renderer still read as one block per row and one code block, paired with their lines", async () => {
    expect(PLAN.length).toBeGreaterThan(2 * SOFT_BLOCK_CHARS);
    const { container } = render(<MarkdownRenderer text={PLAN} />);
    await waitFor(() => expect(container.textContent).toContain("Done."));
    expect(container.querySelectorAll("table").length).toBeGreaterThan(1);
    expect(container.querySelectorAll("pre").length).toBeGreaterThan(1);
    const blocks = readDomBlocks(container);
    const source = sourceBlocks(PLAN);
    expect(blocks.map((b) => b.kind)).toEqual(source.map((b) => b.kind));
    const row = blocks.findIndex((b) => b.text === "file77.ts | change number 77 of the migration");
    expect(blocks[row]?.headingPath).toEqual(["Plan", "Files"]);
    const lines = linesOfBlocks(blocks, source);
    expect(PLAN.split("\n")[(lines[row]?.start ?? 0) - 1]).toContain("file77.ts");
    const codeBlock = blocks.find((b) => b.kind === "code");
    expect(codeBlock?.elements.length).toBeGreaterThan(1);
    expect(lines[blocks.indexOf(codeBlock!)]).toEqual({ start: 130, end: 291 });
    // Its text is the whole code's, whitespace collapsed, read once per piece.
    expect(codeBlock?.text).toBe(code.join(" "));
  });

  it("[V1][V2] a plan with footnotes pairs its blocks with their lines; the footnotes' list at the end is not a block", async () => {
    const plan =
      "# Plan\n\nCache the lookups[^ttl].\n\n- keep them\n\n[^ttl]: Five minutes.\n\nDone.\n";
    const { container } = render(<MarkdownRenderer text={plan} />);
    await waitFor(() => expect(container.querySelector("section.footnotes")).not.toBeNull());
    const blocks = readDomBlocks(container);
    const source = sourceBlocks(plan);
    expect(blocks.map((b) => b.kind)).toEqual(["heading", "paragraph", "item", "paragraph"]);
    expect(source.map((b) => b.kind)).toEqual(blocks.map((b) => b.kind));
    const lines = linesOfBlocks(blocks, source);
    expect(plan.split("\n")[(lines[3]?.start ?? 0) - 1]).toBe("Done.");
  });

  it("[V1] a long plan's blocks are read over several tasks into the same blocks, and a cancelled read never reports", async () => {
    const { container } = render(<MarkdownRenderer text={PLAN} />);
    await waitFor(() => expect(container.textContent).toContain("Done."));
    const whole = readDomBlocks(container);
    let stepped: ReturnType<typeof readDomBlocks> | null = null;
    readDomBlocksInSteps(
      container,
      (blocks) => {
        stepped = blocks;
      },
      0,
    );
    // With no time to spare, each task reads one element: nothing is reported at once.
    expect(stepped).toBeNull();
    await waitFor(() => expect(stepped).toEqual(whole));
    let cancelledReport = false;
    const cancel = readDomBlocksInSteps(
      container,
      () => {
        cancelledReport = true;
      },
      0,
    );
    cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cancelledReport).toBe(false);
  });
});
