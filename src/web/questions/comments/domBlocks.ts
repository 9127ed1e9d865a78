import type { BlockKind } from "../../markdown/sourceBlocks.ts";

/** One commentable block as rendered: a heading, paragraph, list item, table row or code block. */
export interface DomBlock {
  kind: BlockKind;
  /** The block's elements; a code block cut into pieces for rendering has one per piece. */
  elements: HTMLElement[];
  /** The headings above it, outermost first. */
  headingPath: string[];
  /** Its place among the blocks under the same heading path, from 0. */
  indexUnderHeading: number;
  /** Its own text (a list item without its nested lists), whitespace collapsed. */
  text: string;
}

const SELECTOR = "h1,h2,h3,h4,h5,h6,p,li,tr,pre";

export const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

function kindOf(element: Element): BlockKind {
  switch (element.tagName) {
    case "LI":
      return "item";
    case "TR":
      return "row";
    case "PRE":
      return "code";
    case "P":
      return "paragraph";
    default:
      return "heading";
  }
}

function ownText(element: Element): string {
  if (element.tagName === "TR") {
    return [...element.children].map((cell) => collapse(cell.textContent ?? "")).join(" | ");
  }
  if (element.tagName !== "LI" || element.querySelector("ul,ol") === null) {
    return collapse(element.textContent ?? "");
  }
  const copy = element.cloneNode(true) as Element;
  for (const nested of copy.querySelectorAll("ul,ol")) nested.remove();
  return collapse(copy.textContent ?? "");
}

/** The `.md-block` piece an element was rendered in, and the piece before it. */
function piece(element: Element): Element | null {
  return element.closest(".md-block");
}

/** First element of its piece, continuing what the piece before ended with (a cut table or code). */
function continues(element: Element, selector: string): Element | null {
  const own = piece(element);
  if (own === null || own.firstElementChild === null) return null;
  if (!own.firstElementChild.matches(selector)) return null;
  if (!own.firstElementChild.contains(element) && own.firstElementChild !== element) return null;
  const before = own.previousElementSibling?.lastElementChild ?? null;
  return before?.matches(selector) ? before : null;
}

/**
 * V1: the rendered plan's blocks in document order. The markdown renderer cuts long texts into
 * pieces; a table cut between rows repeats its header row and a cut code block is closed and
 * reopened, so those repeats are folded back into one block each.
 */
export function readDomBlocks(root: Element): DomBlock[] {
  const reading = readingDomBlocks(root);
  let step = reading.next();
  while (!step.done) step = reading.next();
  return step.value;
}

/**
 * The same read over several tasks, each at most `budgetMs` of script (and one element): a
 * 2,000-row plan is tens of ms of reading, which would otherwise be one task while the person
 * scrolls. Calls `done` with the blocks unless cancelled first; returns the cancel.
 */
export function readDomBlocksInSteps(
  root: Element,
  done: (blocks: DomBlock[]) => void,
  budgetMs = 8,
): () => void {
  const reading = readingDomBlocks(root);
  const channel = new MessageChannel();
  let cancelled = false;
  const run = () => {
    const began = performance.now();
    let step = reading.next();
    while (!step.done && performance.now() - began < budgetMs) step = reading.next();
    if (cancelled) return;
    if (step.done) {
      channel.port1.close();
      done(step.value);
    } else channel.port2.postMessage(null);
  };
  channel.port1.onmessage = run;
  run();
  return () => {
    cancelled = true;
    channel.port1.close();
  };
}

/** readDomBlocks, one element per step. */
function* readingDomBlocks(root: Element): Generator<void, DomBlock[]> {
  const blocks: DomBlock[] = [];
  const headings: { level: number; text: string }[] = [];
  const counts = new Map<string, number>();
  for (const element of root.querySelectorAll<HTMLElement>(SELECTOR)) {
    yield;
    if (element.tagName === "P" && element.closest("li") !== null) continue;
    // The footnotes' list at the end is built, not written where it shows (sourceBlocks skips it).
    if (element.closest("section.footnotes") !== null) continue;
    const kind = kindOf(element);
    if (kind === "row" && element.parentElement?.tagName === "THEAD") {
      const table = element.closest(".md-table-scroll");
      const earlier = table && continues(table, ".md-table-scroll");
      if (
        earlier &&
        ownText(earlier.querySelector("thead tr") ?? element.ownerDocument.createElement("tr")) ===
          ownText(element)
      ) {
        continue;
      }
    }
    if (kind === "code") {
      const earlier = continues(element, "pre");
      const last = blocks[blocks.length - 1];
      if (earlier && last?.kind === "code" && last.elements.includes(earlier as HTMLElement)) {
        last.elements.push(element);
        // The text so far is collapsed already: collapsing it again for every piece made a
        // 300 KB code block quadratic (tens of ms in one step of the read).
        const more = collapse(element.textContent ?? "");
        if (more !== "") last.text = last.text === "" ? more : `${last.text} ${more}`;
        continue;
      }
    }
    const text = ownText(element);
    if (kind === "heading") {
      const level = Number(element.tagName.slice(1));
      while (headings.length > 0 && (headings[headings.length - 1]?.level ?? 0) >= level) {
        headings.pop();
      }
    }
    const headingPath = headings.map((heading) => heading.text);
    const key = headingPath.join("\u0000");
    const indexUnderHeading = counts.get(key) ?? 0;
    counts.set(key, indexUnderHeading + 1);
    blocks.push({ kind, elements: [element], headingPath, indexUnderHeading, text });
    if (kind === "heading") {
      headings.push({ level: Number(element.tagName.slice(1)), text });
    }
  }
  return blocks;
}
