import MarkdownIt from "markdown-it";
import { gfmFootnotes } from "./gfmFootnotes.ts";
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
gfmFootnotes(parser);
parser.linkify.set({ fuzzyLink: true });
// linkify-it's full test is most of the parse time; text without these can hold no GFM link.
const LINK_HINT = /:\/\/|www\.|@/i;
const fullTest = parser.linkify.test.bind(parser.linkify);
parser.linkify.test = (text: string) => LINK_HINT.test(text) && fullTest(text);
