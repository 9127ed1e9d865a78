import type { Token } from "markdown-it";
import { type FootnotesBefore, foldLabel, footnoteEnv } from "./gfmFootnotes.ts";
import { markdownItParser as parser } from "./markdownParser.ts";

function referencesIn(tokens: Token[], into: string[]): void {
  for (const token of tokens) {
    if (token.type === "footnote_ref")
      into.push(foldLabel((token.meta as { label: string }).label));
    if (token.children) referencesIn(token.children, into);
  }
}

/**
 * GFM numbers a text's notes by their first reference and lists them at its end. A text cut into
 * pieces (splitBlocks.ts) is read here a piece at a time, in order and only as far as asked, so
 * each piece numbers its references as the whole would; the list at the end comes once every
 * piece has been read. Reading a piece parses it once more; only texts with notes pay that.
 */
export class FootnoteLedger {
  private readonly order: string[] = [];
  private readonly counts = new Map<string, number>();
  /** Per piece, what came before it; kept so a piece's props stay the same object. */
  private readonly befores: FootnotesBefore[] = [];
  private readonly definitions = new Map<string, Token[]>();

  constructor(
    private readonly pieces: readonly string[],
    private readonly defined: ReadonlySet<string>,
  ) {}

  before(index: number): FootnotesBefore {
    while (this.befores.length <= index && this.befores.length <= this.pieces.length) {
      const at = this.befores.length;
      if (at > 0) this.readPiece(at - 1);
      this.befores.push({
        defined: this.defined,
        order: [...this.order],
        counts: new Map(this.counts),
      });
    }
    return this.befores[Math.min(index, this.pieces.length)] as FootnotesBefore;
  }

  /** Called once per piece, in order (by `before`). */
  private readPiece(index: number): void {
    const env = footnoteEnv(
      { defined: this.defined, order: [], counts: new Map() },
      this.definitions,
    );
    const references: string[] = [];
    referencesIn(parser.parse(this.pieces[index] ?? "", env), references);
    for (const label of references) {
      if (!this.counts.has(label)) this.order.push(label);
      this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
    }
  }

  /**
   * The notes' list as markdown-it-footnote ends a whole text with it: each referenced note in
   * order, its last paragraph holding one way back per reference. Reads every piece.
   */
  listTokens(): Token[] {
    this.before(this.pieces.length);
    if (this.order.length === 0) return [];
    const { Token } = new parser.core.State("", parser, {});
    const tokens: Token[] = [new Token("footnote_block_open", "", 1)];
    this.order.forEach((label, id) => {
      const open = new Token("footnote_open", "", 1);
      open.meta = { id, label };
      tokens.push(open);
      const body = [...(this.definitions.get(label) ?? [])];
      const last = body[body.length - 1]?.type === "paragraph_close" ? body.pop() : undefined;
      tokens.push(...body);
      for (let subId = 0; subId < (this.counts.get(label) ?? 1); subId++) {
        const anchor = new Token("footnote_anchor", "", 0);
        anchor.meta = { id, subId, label };
        tokens.push(anchor);
      }
      if (last) tokens.push(last);
      tokens.push(new Token("footnote_close", "", -1));
    });
    tokens.push(new Token("footnote_block_close", "", -1));
    return tokens;
  }
}
