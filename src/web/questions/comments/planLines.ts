import type { SourceBlock } from "../../markdown/sourceBlocks.ts";
import { type Lines, linesOfBlocks, quoteLines } from "./anchors.ts";
import type { DomBlock } from "./domBlocks.ts";

// The parser lives in the markdown chunk (or a worker), loaded once a plan has rendered;
// importing it lazily keeps it out of the first load.
const loadParser = () => import("../../markdown/sourceBlocksOffThread.ts");

let cached: { plan: string; source: SourceBlock[] } | null = null;
let pending: { plan: string; source: Promise<SourceBlock[]> } | null = null;

function sourceOf(plan: string): Promise<SourceBlock[]> {
  if (cached?.plan === plan) return Promise.resolve(cached.source);
  if (pending?.plan !== plan) {
    const source = loadParser().then(({ sourceBlocksOffThread }) => sourceBlocksOffThread(plan));
    pending = { plan, source };
    source.then(
      (blocks) => {
        if (pending?.source === source) cached = { plan, source: blocks };
      },
      // A failed parse (or parser fetch) is not kept: the next call for this plan tries again.
      () => {
        if (pending?.source === source) pending = null;
      },
    );
  }
  return pending.source;
}

/** Starts parsing the plan's block lines, so adding a comment need not wait (whenCommentLikely). */
export function warmPlanLines(plan: string): void {
  // A failure here is reported by the comment that needs the lines (linesFor), not twice.
  sourceOf(plan).catch(() => {});
}

/**
 * V2: the plan-file lines a comment covers, from its first block to its last. Rejects when the
 * plan's lines could not be parsed; a later call parses again.
 */
export async function linesFor(
  plan: string,
  blocks: readonly DomBlock[],
  first: number,
  last: number,
  quote: string,
): Promise<Lines> {
  return linesFrom(await sourceOf(plan), plan, blocks, first, last, quote);
}

/** The same, at once when the plan's lines are parsed already (they are, once idle). */
export function linesIfReady(
  plan: string,
  blocks: readonly DomBlock[],
  first: number,
  last: number,
  quote: string,
): Lines | null {
  return cached?.plan === plan ? linesFrom(cached.source, plan, blocks, first, last, quote) : null;
}

// Adding a comment pairs the ~1,000 blocks of a big plan with their lines: once per read of the
// blocks, not once per comment.
const paired = new WeakMap<
  readonly DomBlock[],
  { source: SourceBlock[]; lines: (Lines | undefined)[] }
>();

function pairedLines(blocks: readonly DomBlock[], source: SourceBlock[]): (Lines | undefined)[] {
  const known = paired.get(blocks);
  if (known?.source === source) return known.lines;
  const lines = linesOfBlocks(blocks, source);
  paired.set(blocks, { source, lines });
  return lines;
}

let split: { plan: string; lines: string[] } | null = null;

function planLines(plan: string): string[] {
  if (split?.plan !== plan) split = { plan, lines: plan.split("\n") };
  return split.lines;
}

function linesFrom(
  source: SourceBlock[],
  plan: string,
  blocks: readonly DomBlock[],
  first: number,
  last: number,
  quote: string,
): Lines {
  const all = pairedLines(blocks, source);
  const start = all[first];
  const end = all[last] ?? start;
  if (start === undefined || end === undefined) return fallbackLines(plan, quote);
  const covered = { start: start.start, end: Math.max(start.end, end.end) };
  return first === last ? quoteLines(planLines(plan), covered, quote) : covered;
}

/** Blocks that could not be paired: the first line holding the quote's start, else line 1. */
function fallbackLines(plan: string, quote: string): Lines {
  const lines = planLines(plan);
  const found = quoteLines(lines, { start: 1, end: lines.length }, quote);
  return found.start === 1 && found.end === lines.length ? { start: 1, end: 1 } : found;
}
