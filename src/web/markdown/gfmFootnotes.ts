import type { MarkdownIt, Token } from "markdown-it";
import footnote from "markdown-it-footnote";

// GFM footnotes (`[^label]` and `[^label]: text`) through markdown-it-footnote, made to behave as
// GFM does: its `^[inline]` notes (not GFM) are off, and a label matches its definition ignoring
// case (the plugin compares them as written). A text cut into pieces numbers its notes as the
// whole text would through `footnoteEnv` (see footnoteLedger.ts).

export const foldLabel = (label: string) => label.toLowerCase();

/**
 * A note's ways back in its list: remark-gfm lists one per reference, so a hostile text of
 * 75,000 references to one note made its list one 3 s task; past this many they are left out.
 */
export const MAX_BACK_REFERENCES = 32;

interface FootnoteList {
  label?: string;
  count: number;
}

/** The plugin's state in a parse's env; `refs` maps `:label` to a note's number (-1: unused). */
export interface FootnoteState {
  refs: Record<string, number>;
  list?: FootnoteList[];
}

function foldedRefs(): Record<string, number> {
  const foldedKey = (key: string | symbol) =>
    typeof key === "string" && key.startsWith(":") ? `:${foldLabel(key.slice(1))}` : key;
  return new Proxy({} as Record<string, number>, {
    get: (target, key) => Reflect.get(target, foldedKey(key)),
    // A definition marks its label unused (-1); one referenced in an earlier piece stays numbered.
    set: (target, key, value) => {
      const folded = foldedKey(key);
      const known = Reflect.get(target, folded) as number | undefined;
      if (value === -1 && known !== undefined && known >= 0) return true;
      return Reflect.set(target, folded, value);
    },
  });
}

/** What one piece needs to number its footnote references as the whole text numbers them. */
export interface FootnotesBefore {
  /** Every label the text defines, folded. */
  defined: ReadonlySet<string>;
  /** Labels referenced in earlier pieces, in the order of their first reference. */
  order: readonly string[];
  /** How often each of those was referenced there. */
  counts: ReadonlyMap<string, number>;
}

/**
 * The env for parsing one piece of a text: every label the text defines is known (so a
 * reference to a note defined in a later piece is one), and the notes referenced in earlier
 * pieces keep their numbers and counts. `definitions`, when given, receives each note defined in
 * this piece, as its tokens.
 */
export function footnoteEnv(
  { defined, order, counts }: FootnotesBefore,
  definitions?: Map<string, Token[]>,
): { footnotes: FootnoteState; footnoteDefinitions?: Map<string, Token[]> } {
  const refs = foldedRefs();
  for (const label of defined) refs[`:${label}`] = -1;
  order.forEach((label, index) => {
    refs[`:${label}`] = index;
  });
  const list = order.map((label) => ({ label, count: counts.get(label) ?? 0 }));
  return {
    footnotes: { refs, list },
    ...(definitions ? { footnoteDefinitions: definitions } : {}),
  };
}

export function gfmFootnotes(parser: MarkdownIt): void {
  parser.use(footnote);
  parser.inline.ruler.disable("footnote_inline");
  parser.core.ruler.before("block", "footnote_folded_labels", (state) => {
    state.env.footnotes ??= { refs: foldedRefs() } satisfies FootnoteState;
  });
  parser.core.ruler.before("footnote_tail", "footnote_fold_definitions", (state) => {
    for (const token of state.tokens) {
      const meta = token.meta as { label?: string } | null;
      if (token.type === "footnote_reference_open" && meta?.label) {
        meta.label = foldLabel(meta.label);
      }
    }
    for (const note of (state.env.footnotes as FootnoteState | undefined)?.list ?? []) {
      if (note.label !== undefined) note.label = foldLabel(note.label);
    }
  });
  // Each definition's tokens, for a piece's caller that lists the notes itself.
  parser.core.ruler.before("footnote_tail", "footnote_keep_definitions", (state) => {
    const kept = state.env.footnoteDefinitions as Map<string, Token[]> | undefined;
    if (!kept) return;
    let label: string | undefined;
    let start = 0;
    state.tokens.forEach((token, index) => {
      if (token.type === "footnote_reference_open") {
        label = (token.meta as { label: string }).label;
        start = index + 1;
      } else if (token.type === "footnote_reference_close" && label !== undefined) {
        kept.set(label, state.tokens.slice(start, index));
        label = undefined;
      }
    });
  });
}
