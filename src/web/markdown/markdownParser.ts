import MarkdownIt from "markdown-it";
import footnote from "markdown-it-footnote";
import { gfmStrikethrough } from "./gfmStrikethrough.ts";

// One parser for the renderer (markdownToHast) and for readers of the block structure (plan
// comments' line numbers, sourceBlocks), so both see the same blocks. Its own module so the
// plan-lines worker can load it without the renderer.
const parser = new MarkdownIt({ html: true, linkify: true });
export const markdownItParser = parser;
// Unsafe URLs are blanked by defaultUrlTransform, as react-markdown does; markdown-it's own check
// would instead leave the whole `[text](url)` as literal text.
parser.validateLink = () => true;
gfmStrikethrough(parser);
// GFM footnotes (`[^label]` and `[^label]: text`); markdown-it-footnote's `^[inline]` notes are not GFM.
parser.use(footnote);
parser.inline.ruler.disable("footnote_inline");
// GFM matches a footnote's label to its definition ignoring case; markdown-it-footnote compares
// them as written. Its label table folds case, and the labels it matches on in the end do too.
const foldLabel = (label: string) => label.toLowerCase();
const foldedKey = (key: string | symbol) =>
  typeof key === "string" && key.startsWith(":") ? `:${foldLabel(key.slice(1))}` : key;
parser.core.ruler.before("block", "footnote_folded_labels", (state) => {
  state.env.footnotes ??= {
    refs: new Proxy({} as Record<string, number>, {
      get: (target, key) => Reflect.get(target, foldedKey(key)),
      set: (target, key, value) => Reflect.set(target, foldedKey(key), value),
    }),
  };
});
parser.core.ruler.before("footnote_tail", "footnote_fold_definitions", (state) => {
  for (const token of state.tokens) {
    const meta = token.meta as { label?: string } | null;
    if (token.type === "footnote_reference_open" && meta?.label) meta.label = foldLabel(meta.label);
  }
  const notes = (state.env.footnotes as { list?: { label?: string }[] } | undefined)?.list;
  for (const note of notes ?? []) {
    if (note.label !== undefined) note.label = foldLabel(note.label);
  }
});
parser.linkify.set({ fuzzyLink: true });
// linkify-it's full test is most of the parse time; text without these can hold no GFM link.
const LINK_HINT = /:\/\/|www\.|@/i;
const fullTest = parser.linkify.test.bind(parser.linkify);
parser.linkify.test = (text: string) => LINK_HINT.test(text) && fullTest(text);
