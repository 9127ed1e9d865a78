import type { PlanComment } from "../../../protocol/index.ts";
import type { DomBlock } from "./domBlocks.ts";

const NAME = "plan-comment";

/** Each comment's range, valid while its block (read afresh on every re-render) is the same. */
const found = new WeakMap<PlanComment, { block: DomBlock; range: Range | null }>();

/** A range over `quote` inside `element`'s text, across its text nodes, or null. */
function rangeOf(element: HTMLElement, quote: string): Range | null {
  const text = element.textContent ?? "";
  const at = text.indexOf(quote);
  if (at < 0) return null;
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let offset = 0;
  let started = false;
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const length = node.textContent?.length ?? 0;
    if (!started && at < offset + length) {
      range.setStart(node, at - offset);
      started = true;
    }
    if (started && at + quote.length <= offset + length) {
      range.setEnd(node, at + quote.length - offset);
      return range;
    }
    offset += length;
  }
  return null;
}

/**
 * V1: a comment on part of a block highlights that text (CSS Custom Highlight, so the
 * rendered markdown is not touched); where the browser has no such API the block tint stays.
 */
export function highlightQuotes(
  blocks: readonly DomBlock[],
  comments: readonly PlanComment[],
  located: readonly number[],
) {
  const registry = (globalThis as { CSS?: { highlights?: Map<string, unknown> } }).CSS?.highlights;
  const HighlightClass = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown })
    .Highlight;
  if (registry === undefined || HighlightClass === undefined) return;
  const ranges: Range[] = [];
  comments.forEach((comment, index) => {
    const block = blocks[located[index] ?? -1];
    if (block === undefined || comment.anchor.quote === block.text) return;
    // A new comment walks its own block's text only; the others keep the range they had.
    const cached = found.get(comment);
    if (cached !== undefined && cached.block === block) {
      if (cached.range) ranges.push(cached.range);
      return;
    }
    let range: Range | null = null;
    for (const element of block.elements) {
      range = rangeOf(element, comment.anchor.quote);
      if (range) break;
    }
    found.set(comment, { block, range });
    if (range) ranges.push(range);
  });
  if (ranges.length === 0) registry.delete(NAME);
  else registry.set(NAME, new HighlightClass(...ranges));
}
