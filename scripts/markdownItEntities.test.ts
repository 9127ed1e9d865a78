import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Rolldown } from "vite";
import { describe, expect, it } from "vitest";
import { firstLoadFiles } from "../bench/bundle.ts";
import { buildPage } from "../bench/lib/build.ts";

const TABLE = /[\\/]entities[\\/]dist[\\/]generated[\\/]decode-data-html\.js$/;

describe("markdown-it's entity table in the build (R5, issue 15)", () => {
  it("[R5] no chunk fetched before a first plan card holds the full table; the parser fetches it on demand", async () => {
    const { outDir, output } = await buildPage();
    const chunks = output.output.filter(
      (item): item is Rolldown.OutputChunk => item.type === "chunk",
    );
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    // What bench/bundle.ts counts before a plan card: the first load, then the markdown and
    // plan-review chunks with their static imports.
    const beforeCard = new Set(
      firstLoadFiles(readFileSync(join(outDir, "index.html"), "utf8"), output),
    );
    const queue = chunks
      .filter((chunk) => /Markdown|PlanReviewPanel/.test(chunk.fileName))
      .map((chunk) => chunk.fileName);
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      beforeCard.add(file);
      for (const imported of byName.get(file)?.imports ?? []) {
        if (!beforeCard.has(imported)) queue.push(imported);
      }
    }
    const holders = chunks.filter((chunk) =>
      Object.keys(chunk.modules).some((id) => TABLE.test(id)),
    );
    expect(holders.map((chunk) => chunk.fileName)).toEqual([expect.stringMatching(/entityTable/)]);
    const table = holders[0]!.fileName;
    expect(beforeCard.has(table)).toBe(false);
    expect(chunks.filter((chunk) => chunk.imports.includes(table))).toEqual([]);
    const parser = chunks.find((chunk) => /markdownParser/.test(chunk.fileName));
    expect(parser?.dynamicImports).toContain(table);
    expect(beforeCard.has(parser?.fileName ?? "")).toBe(true);
  }, 120_000);
});
