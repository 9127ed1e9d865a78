import type { PlanCommentAnchor } from "../../../protocol/index.ts";
import type { BlockKind, SourceBlock } from "../../markdown/sourceBlocks.ts";

/** What an anchor needs to know of a rendered block (a DomBlock without its elements). */
export interface BlockInfo {
  kind: BlockKind;
  headingPath: string[];
  indexUnderHeading: number;
  text: string;
}

export interface Lines {
  start: number;
  end: number;
}

const samePath = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((part, index) => part === b[index]);

const clip = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max));

/** V1: an anchor names the block by heading path, place and text, never by DOM offsets. */
export function anchorFor(block: BlockInfo, quote: string, lines: Lines): PlanCommentAnchor {
  return {
    headingPath: block.headingPath.slice(-6).map((part) => clip(part, 300)),
    blockIndex: block.indexUnderHeading,
    blockText: clip(block.text, 4000),
    quote: clip(quote.trim() || block.text, 2000),
    lines,
  };
}

/**
 * V1: the block an anchor points at, after a re-render or a reload: the same place with the
 * same text, else the block under the same headings (then anywhere) holding the quoted text.
 */
export function locateAnchor(anchor: PlanCommentAnchor, blocks: readonly BlockInfo[]): number {
  const path = anchor.headingPath;
  const exact = blocks.findIndex(
    (block) =>
      block.indexUnderHeading === anchor.blockIndex &&
      block.text === anchor.blockText &&
      samePath(block.headingPath, path),
  );
  if (exact >= 0) return exact;
  const sameText = blocks.findIndex((block) => block.text === anchor.blockText);
  if (sameText >= 0) return sameText;
  const quoted = (block: BlockInfo) => block.text.includes(anchor.quote);
  const near = blocks.findIndex((block) => samePath(block.headingPath, path) && quoted(block));
  return near >= 0 ? near : blocks.findIndex(quoted);
}

export type FollowUpStatus = "unchanged" | "changed" | "removed";

/**
 * V3: where an earlier revision's comment lands in this one, and whether the agent changed
 * its place: the same block text is unchanged; the quote in a rewritten block, or a block at
 * the same place under the same headings, is changed; nothing left to point at is removed.
 */
export function followUp(
  anchor: PlanCommentAnchor,
  blocks: readonly BlockInfo[],
): { status: FollowUpStatus; index: number } {
  const same = blocks.findIndex((block) => block.text === anchor.blockText);
  if (same >= 0) return { status: "unchanged", index: same };
  const located = locateAnchor(anchor, blocks);
  if (located >= 0) return { status: "changed", index: located };
  const section = blocks
    .map((block, index) => ({ block, index }))
    .filter(({ block }) => samePath(block.headingPath, anchor.headingPath));
  const place =
    section.find(({ block }) => block.indexUnderHeading === anchor.blockIndex) ?? section.at(-1);
  return place ? { status: "changed", index: place.index } : { status: "removed", index: -1 };
}

/**
 * V2: source lines of each rendered block, by walking both lists in order. They come from the
 * same parser, so they normally pair one to one; a block of another kind is skipped over.
 */
export function linesOfBlocks(
  blocks: readonly BlockInfo[],
  source: readonly SourceBlock[],
): (Lines | undefined)[] {
  const result: (Lines | undefined)[] = [];
  let next = 0;
  for (const block of blocks) {
    let found = -1;
    for (let j = next; j < Math.min(source.length, next + 8); j++) {
      if (source[j]?.kind === block.kind) {
        found = j;
        break;
      }
    }
    const match = source[found];
    if (match === undefined) {
      result.push(undefined);
      continue;
    }
    result.push({ start: match.start, end: match.end });
    next = found + 1;
  }
  return result;
}

const plain = (text: string) =>
  text
    .replace(/[*_`~#>|[\]]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();

/** V2: the lines of a block a quote lies on (a quote is often part of one line of a block). */
export function quoteLines(planLines: readonly string[], block: Lines, quote: string): Lines {
  if (block.start === block.end) return block;
  const words = plain(quote).split(" ").filter(Boolean);
  if (words.length === 0) return block;
  const head = words.slice(0, 3).join(" ");
  const tail = words.slice(-3).join(" ");
  let start = -1;
  for (let line = block.start; line <= block.end; line++) {
    if (plain(planLines[line - 1] ?? "").includes(head)) {
      start = line;
      break;
    }
  }
  if (start < 0) return block;
  for (let line = start; line <= block.end; line++) {
    if (plain(planLines[line - 1] ?? "").includes(tail)) return { start, end: line };
  }
  return { start, end: block.end };
}
