import type { DomBlock } from "./domBlocks.ts";

/** margin: a column beside the plan; inline: below each block; overlay: nothing beside the plan (decided, no comments). */
export type Layout = "margin" | "inline" | "overlay";

export const GAP = 6;

/**
 * V1 budget: what the card layout measured, so a render reads only what is new. A slot's height
 * is kept until a ResizeObserver reports another one (a card turned into its editor); a block's
 * top in the layer is kept for one list of blocks, one layout and one size of the plan, so
 * picking a block or opening the comment box reads no anchor at all.
 */
export class CardMeasures {
  private readonly heights = new WeakMap<HTMLElement, number>();
  private readonly tops = new Map<number, number | null>();
  private topsOf: { blocks: readonly DomBlock[]; layout: Layout } | null = null;

  /** The slot's height: read once, then what the observer last reported. */
  height(slot: HTMLElement): number {
    let height = this.heights.get(slot);
    if (height === undefined) {
      height = slot.offsetHeight;
      this.heights.set(slot, height);
    }
    return height;
  }

  /** The observer's report of a slot's height; true when it changed what the layout used. */
  resized(slot: HTMLElement, height: number): boolean {
    const before = this.heights.get(slot);
    this.heights.set(slot, height);
    return before !== undefined && before !== height;
  }

  /** The plan changed size (a resize, a piece laid out at last, a font): every top moved. */
  forgetTops(): void {
    this.tops.clear();
  }

  /**
   * Each block's top (its first element's) in `layer`, for the margin and overlay layouts;
   * null for a block without elements. Only blocks not read since the last invalidation are read.
   */
  topsIn(
    layer: HTMLElement,
    blocks: readonly DomBlock[],
    layout: Layout,
    indexes: readonly number[],
  ): Map<number, number | null> {
    if (this.topsOf?.blocks !== blocks || this.topsOf.layout !== layout) {
      this.tops.clear();
      this.topsOf = { blocks, layout };
    }
    const missing = indexes.filter((index) => !this.tops.has(index));
    if (missing.length > 0) {
      const origin = layer.getBoundingClientRect().top;
      for (const index of missing) {
        const first = blocks[index]?.elements[0];
        this.tops.set(index, first ? first.getBoundingClientRect().top - origin : null);
      }
    }
    return new Map(indexes.map((index) => [index, this.tops.get(index) ?? null]));
  }
}

/**
 * Margin: each card at its block's top, pushed down past the card above. Inline: cards sit in
 * room made below their block (its bottom margin grows by their height).
 */
export function layoutCards(
  layer: HTMLElement,
  blocks: readonly DomBlock[],
  layout: Layout,
  marked: Set<HTMLElement>,
  measures: CardMeasures,
): HTMLElement[] {
  const wide = layout !== "inline";
  // All reads, then all writes: a read after a write would lay the page out once per card.
  const slots = [...layer.querySelectorAll<HTMLElement>(".qcomments-slot")];
  const heights = new Map(slots.map((slot) => [slot, measures.height(slot)]));
  const byBlock = new Map<number, HTMLElement[]>();
  for (const slot of slots) {
    const index = Number(slot.dataset.block);
    byBlock.set(index, [...(byBlock.get(index) ?? []), slot]);
  }
  const indexes = [...byBlock.keys()].sort((a, b) => a - b);
  const room = new Map<HTMLElement, string>();
  if (!wide) {
    for (const [index, group] of byBlock) {
      const last = blocks[index]?.elements.at(-1);
      if (last === undefined) continue;
      const height = group.reduce((sum, slot) => sum + (heights.get(slot) ?? 0) + GAP, GAP);
      room.set(last, `${height}px`);
      marked.add(last);
    }
  }
  for (const element of marked) {
    const height = room.get(element) ?? "";
    if (element.style.marginBottom !== height) element.style.marginBottom = height;
  }
  // Nothing to place (a plan without comments, before a block is picked): reading a position
  // would force the whole plan's layout into the task that shows the card.
  if (byBlock.size === 0) return slots;
  // Inline tops move with the room just made above them, so they are read afresh.
  let tops: Map<number, number | null>;
  if (wide) tops = measures.topsIn(layer, blocks, layout, indexes);
  else {
    const origin = layer.getBoundingClientRect().top;
    tops = new Map(
      indexes.map((index) => {
        const last = blocks[index]?.elements.at(-1);
        return [index, last ? last.getBoundingClientRect().bottom - origin + GAP : null];
      }),
    );
  }
  let floor = 0;
  for (const index of indexes) {
    const anchorTop = tops.get(index) ?? null;
    if (anchorTop === null) continue;
    let top = anchorTop;
    for (const slot of byBlock.get(index) ?? []) {
      if (wide) top = Math.max(top, floor);
      const value = `${Math.round(top)}px`;
      if (slot.style.top !== value) slot.style.top = value;
      top += (heights.get(slot) ?? 0) + GAP;
      floor = top;
    }
  }
  return slots;
}
