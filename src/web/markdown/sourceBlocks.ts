import { markdownItParser } from "./markdownParser.ts";

/** The kinds of rendered block a comment can anchor to (V1). */
export type BlockKind = "heading" | "paragraph" | "item" | "row" | "code";

export interface SourceBlock {
  kind: BlockKind;
  /** Lines in the markdown text, counted from 1, both included. */
  start: number;
  end: number;
}

/**
 * V2: the commentable blocks of a markdown text in document order, with their source lines,
 * parsed by the renderer's own parser so the order matches the rendered blocks. A list item
 * ends where a nested list begins (the nested items are blocks of their own); a paragraph in a
 * list item is that item.
 */
export function sourceBlocks(text: string): SourceBlock[] {
  const lines = text.split("\n");
  const blocks: SourceBlock[] = [];
  const openItems: SourceBlock[] = [];
  const add = (kind: BlockKind, map: [number, number] | null) => {
    if (map === null) return undefined;
    let end = map[1];
    while (end > map[0] + 1 && (lines[end - 1] ?? "").trim() === "") end -= 1;
    const block = { kind, start: map[0] + 1, end };
    blocks.push(block);
    return block;
  };
  // GFM footnotes are listed at the end, away from where they are written: not commentable.
  let inFootnotes = false;
  for (const token of markdownItParser.parse(text, {})) {
    if (token.type === "footnote_block_open") inFootnotes = true;
    if (inFootnotes) continue;
    switch (token.type) {
      case "heading_open":
        add("heading", token.map);
        break;
      case "paragraph_open":
        if (openItems.length === 0) add("paragraph", token.map);
        break;
      case "list_item_open": {
        const item = add("item", token.map);
        if (item) openItems.push(item);
        break;
      }
      case "list_item_close":
        openItems.pop();
        break;
      case "bullet_list_open":
      case "ordered_list_open": {
        const parent = openItems[openItems.length - 1];
        if (parent && token.map) {
          parent.end = Math.max(parent.start, Math.min(parent.end, token.map[0]));
        }
        break;
      }
      case "tr_open":
        add("row", token.map);
        break;
      case "fence":
      case "code_block":
        add("code", token.map);
        break;
    }
  }
  return blocks;
}
