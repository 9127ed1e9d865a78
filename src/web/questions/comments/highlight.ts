import type { PlanComment } from "../../../protocol/index.ts";
import type { DomBlock } from "./domBlocks.ts";

const NAME = "plan-comment";

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
    for (const element of block.elements) {
      const range = rangeOf(element, comment.anchor.quote);
      if (range) {
        ranges.push(range);
        break;
      }
    }
  });
  if (ranges.length === 0) registry.delete(NAME);
  else registry.set(NAME, new HighlightClass(...ranges));
}
