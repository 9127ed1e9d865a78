import { foldLabel } from "./gfmFootnotes.ts";

// Container prefixes (block quote markers, list markers) in front of a line's own content.
const CONTAINER = /^ {0,3}(?:>|[-*+](?=\s|$)|\d{1,9}[.)](?=\s|$))\s?/;
const FENCE_OPEN = /^\s*(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^\s*(`{3,}|~{3,})\s*$/;
const TOP_FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(\s|$)/;
const TOP_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const TABLE_DELIMITER = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const DEFINITION = /^ {0,3}\[(?:[^\]\\]|\\.)+\]:/;
const TITLE_LINE = /^\s+["'(]|^\s*$/;
// "Foo\n-" is a setext heading, not a list: never cut in front of an underline.
const UNDERLINE = /^ {0,3}(?:-+|=+)\s*$/;

/** A section longer than this is cut at the next block boundary, not only at headings. */
export const SOFT_BLOCK_CHARS = 1500;

export interface SplitMarkdown {
  blocks: string[];
  /** Every link reference definition of the text, so a block can use one defined in another. */
  definitions: string;
  /** The labels of the text's footnote definitions, folded. */
  footnoteLabels: ReadonlySet<string>;
}

interface Fence {
  marker: string;
  /** The opening line; a long code block is closed and reopened with it. */
  line: string;
  /** Opened at the top level (not in a list item or quote), where it may be cut. */
  top: boolean;
}

/** A line's content after its block quote and list markers; the fence can open after them. */
function content(line: string): { text: string; top: boolean } {
  let text = line;
  let top = true;
  for (let match = CONTAINER.exec(text); match; match = CONTAINER.exec(text)) {
    text = text.slice(match[0].length);
    top = false;
  }
  return { text, top };
}

/** A line that may be a top-level link reference definition (DEFINITION, on any line). */
const MAY_DEFINE = /^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:/m;

/** A GFM footnote definition's first line; its label is the first group. */
const FOOTNOTE_DEFINITION = /^ {0,3}\[\^([^\]\s]+)\]:/;

/** Pieces split on demand (see `splitMarkdown`), so a long text's first screen splits only its start. */
export interface LazySplit {
  /** The pieces split so far; grows as `has` asks for more. */
  readonly blocks: string[];
  /** Every link reference definition of the text, so a piece can use one defined in another. */
  readonly definitions: string;
  /** The labels of the text's footnote definitions, folded; all of them once the text is split. */
  readonly footnoteLabels: ReadonlySet<string>;
  /** Splits on until piece `index` exists or the text ends; whether it exists. */
  has(index: number): boolean;
}

/**
 * Splits markdown into pieces that parse on their own, so a long text renders a few pieces per
 * task. Cuts at ATX headings outside fenced code; a section longer than SOFT_BLOCK_CHARS is cut
 * further at block boundaries: before a top-level list item (an ordered item keeps its number,
 * so the list goes on counting), between table rows (the piece repeats the header row), inside
 * a top-level code block (closed and reopened with the same fence), and before a paragraph
 * that follows a blank line. Link reference definitions are collected for every piece: a text
 * that may hold one is split whole at once, so a piece never misses one defined further down.
 * The labels of its footnote definitions are collected the same way (see FootnoteLedger).
 */
export function splitLazily(text: string): LazySplit {
  const blocks: string[] = [];
  const definitions: string[] = [];
  const footnoteLabels = new Set<string>();
  // Most texts have no notes: their lines are not tested for one.
  const mayHaveNotes = text.includes("[^");
  let current: string[] = [];
  let currentChars = 0;
  let fence: Fence | null = null;
  let tableHeader: string[] | null = null;
  let previous = "";
  let afterDefinition = false;
  let position = 0;
  let ended = false;

  const cut = (carry: string[] = []) => {
    if (current.some((line) => line.trim() !== "")) {
      blocks.push(current.join("\n"));
      current = [...carry];
      currentChars = carry.reduce((sum, line) => sum + line.length + 1, 0);
    }
  };

  const step = (line: string) => {
    const long = currentChars >= SOFT_BLOCK_CHARS;
    const blank = line.trim() === "";
    if (fence) {
      const inner = content(line).text;
      const close = FENCE_CLOSE.exec(fence.top ? line : inner);
      if (close?.[1] && close[1][0] === fence.marker[0] && close[1].length >= fence.marker.length) {
        fence = null;
      } else if (fence.top && long) {
        current.push(fence.marker);
        cut([fence.line]);
      }
    } else {
      const { text: inner, top } = content(line);
      const opened = FENCE_OPEN.exec(inner);
      const topFence = top && TOP_FENCE.test(line);
      if (HEADING.test(line)) {
        cut();
        tableHeader = null;
      } else if (long && tableHeader && !blank && line.includes("|")) {
        cut(tableHeader);
      } else if (long && !tableHeader && TOP_ITEM.test(line) && !UNDERLINE.test(line)) {
        cut();
      } else if (long && previous.trim() === "" && !blank && /^\S/.test(line)) {
        cut();
      }
      if (blank) tableHeader = null;
      else if (top && TABLE_DELIMITER.test(line) && previous.includes("|") && !tableHeader) {
        tableHeader = [previous, line];
      }
      // A definition cannot interrupt a paragraph.
      const definitionStart: boolean =
        top &&
        DEFINITION.test(line) &&
        (previous.trim() === "" || afterDefinition || HEADING.test(previous));
      // A footnote definition may interrupt a paragraph.
      const footnote = top && mayHaveNotes ? FOOTNOTE_DEFINITION.exec(line) : null;
      if (footnote?.[1]) footnoteLabels.add(foldLabel(footnote[1]));
      if (definitionStart) definitions.push(line);
      else if (afterDefinition && !blank && TITLE_LINE.test(line)) definitions.push(line);
      afterDefinition = definitionStart;
      if (opened?.[1] && !(opened[1][0] === "`" && opened[2]?.includes("`"))) {
        fence = { marker: opened[1], line, top: topFence };
      }
    }
    current.push(line);
    currentChars += line.length + 1;
    previous = line;
  };

  const has = (index: number): boolean => {
    while (blocks.length <= index && !ended) {
      const newline = text.indexOf("\n", position);
      if (newline === -1) {
        step(text.slice(position));
        if (current.length > 0) blocks.push(current.join("\n"));
        ended = true;
      } else {
        step(text.slice(position, newline));
        position = newline + 1;
      }
    }
    return index < blocks.length;
  };

  if (text.includes("]:") && MAY_DEFINE.test(text)) has(Number.POSITIVE_INFINITY);
  // Joined once per new definition, not on each read: the renderer reads it every step.
  let joined = { count: 0, text: "" };
  return {
    blocks,
    footnoteLabels,
    get definitions() {
      if (joined.count !== definitions.length) {
        joined = { count: definitions.length, text: definitions.join("\n") };
      }
      return joined.text;
    },
    has,
  };
}

/** All pieces at once (see `splitLazily`). */
export function splitMarkdown(text: string): SplitMarkdown {
  const split = splitLazily(text);
  split.has(Number.POSITIVE_INFINITY);
  return {
    blocks: split.blocks,
    definitions: split.definitions,
    footnoteLabels: split.footnoteLabels,
  };
}

/** The pieces alone (see `splitMarkdown`). */
export function splitMarkdownBlocks(text: string): string[] {
  return splitMarkdown(text).blocks;
}
