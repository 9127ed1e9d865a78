// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import { CardMeasures, GAP, layoutCards } from "./cardLayout.ts";
import type { DomBlock } from "./domBlocks.ts";

/** An element whose rect reads are counted; its top can be moved (as a relayout would). */
function anchor(top: number) {
  const element = document.createElement("p");
  const box = { top };
  const read = vi.fn(() => ({ top: box.top, bottom: box.top + 20 }) as DOMRect);
  element.getBoundingClientRect = read;
  return { element, box, read };
}

function blocksOf(...elements: HTMLElement[]): DomBlock[] {
  return elements.map((element, index) => ({
    kind: "paragraph",
    elements: [element],
    headingPath: [],
    indexUnderHeading: index,
    text: `block ${index}`,
  }));
}

/** A card slot on `block` whose height reads are counted. */
function slot(layer: HTMLElement, block: number, height: number) {
  const element = document.createElement("div");
  element.className = "qcomments-slot";
  element.dataset.block = String(block);
  const read = vi.fn(() => height);
  Object.defineProperty(element, "offsetHeight", { get: read });
  layer.append(element);
  return { element, read };
}

function setup() {
  const layer = document.createElement("div");
  layer.getBoundingClientRect = () => ({ top: 10 }) as DOMRect;
  const first = anchor(110);
  const second = anchor(130);
  const blocks = blocksOf(first.element, second.element);
  const measures = new CardMeasures();
  const marked = new Set<HTMLElement>();
  const layout = (on = blocks, mode: "margin" | "overlay" = "margin") =>
    layoutCards(layer, on, mode, marked, measures);
  return { layer, first, second, blocks, measures, layout };
}

describe("card layout measures", () => {
  it("[V1] re-renders read no anchor again; a resize of the plan or a new read of its blocks does", () => {
    const { layer, first, second, blocks, measures, layout } = setup();
    const a = slot(layer, 0, 50);
    const b = slot(layer, 1, 40);
    layout();
    expect(a.element.style.top).toBe("100px");
    // Pushed down past the card above: 100 + 50 + GAP.
    expect(b.element.style.top).toBe(`${100 + 50 + GAP}px`);
    layout();
    layout();
    expect(first.read).toHaveBeenCalledTimes(1);
    expect(second.read).toHaveBeenCalledTimes(1);
    expect(a.read).toHaveBeenCalledTimes(1);

    // The plan was resized (its ResizeObserver forgets the tops): the blocks moved.
    first.box.top = 210;
    second.box.top = 400;
    measures.forgetTops();
    layout();
    expect(first.read).toHaveBeenCalledTimes(2);
    expect(a.element.style.top).toBe("200px");
    expect(b.element.style.top).toBe("390px");

    // The markdown re-rendered: a new list of blocks is measured afresh, even on the same elements.
    first.box.top = 60;
    layout([...blocks]);
    expect(first.read).toHaveBeenCalledTimes(3);
    expect(a.element.style.top).toBe("50px");
  });

  it("[V1] a change of layout reads the tops again", () => {
    const { layer, first, layout, blocks } = setup();
    slot(layer, 0, 50);
    layout(blocks, "overlay");
    layout(blocks, "margin");
    expect(first.read).toHaveBeenCalledTimes(2);
  });

  it("[V1] a new card is the only slot measured; a card whose size the observer reports moves those below", () => {
    const { layer, measures, layout } = setup();
    const a = slot(layer, 0, 50);
    layout();
    const b = slot(layer, 1, 40);
    layout();
    expect(a.read).toHaveBeenCalledTimes(1);
    expect(b.read).toHaveBeenCalledTimes(1);
    expect(b.element.style.top).toBe(`${100 + 50 + GAP}px`);
    // The first card opened its editor: the observer reports 90 px and the next card moves.
    expect(measures.resized(a.element, 90)).toBe(true);
    expect(measures.resized(a.element, 90)).toBe(false);
    layout();
    expect(a.read).toHaveBeenCalledTimes(1);
    expect(b.element.style.top).toBe(`${100 + 90 + GAP}px`);
  });
});
