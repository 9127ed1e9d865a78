import type { Element, ElementContent, Properties, Root, Text } from "hast";
import type { Env, Token } from "markdown-it";
import { defaultUrlTransform } from "react-markdown";
import type { FootnoteLedger } from "./footnoteLedger.ts";
import { type FootnoteNaming, REMARK_FOOTNOTE_NAMING } from "./footnoteNaming.ts";
import {
  type FootnotesBefore,
  foldLabel,
  footnoteEnv,
  MAX_BACK_REFERENCES,
} from "./gfmFootnotes.ts";
import { markdownItParser as parser } from "./markdownParser.ts";

// markdown-it parses about ten times faster than micromark (react-markdown's parser); this
// module turns its tokens into the hast tree that remark-gfm + remark-rehype would have built,
// so react-markdown's renderer and our components see the same elements.
// Raw HTML is recognised as CommonMark says, then shown as its source text, as react-markdown
// (without rehype-raw) shows it; it never becomes markup. The parser itself is built in
// markdownParser.ts, which the plan-lines worker loads without this module.

// GFM links bare URLs only with a scheme or `www.`; linkify-it also links `README.md`.
const GFM_LITERAL = /^(?:https?:\/\/|www\.|mailto:|xmpp:)/i;
const EMAIL = /^[^\s@/:]+@[^\s@/]+$/;
const TASK = /^\[([ xX])\][ \t\n]/;
const ALIGN = /text-align:\s*(left|right|center)/;

type Child = ElementContent;

const text = (value: string): Text => ({ type: "text", value });

const element = (
  tagName: string,
  properties: Properties = {},
  children: Child[] = [],
): Element => ({
  type: "element",
  tagName,
  properties,
  children,
});

function push(children: Child[], node: Child): void {
  const last = children[children.length - 1];
  if (node.type === "text" && last?.type === "text") last.value += node.value;
  else children.push(node);
}

/** Newlines between block children, as remark-rehype writes them (`state.wrap`). */
function wrap(nodes: Child[], loose: boolean): Child[] {
  const result: Child[] = loose ? [text("\n")] : [];
  nodes.forEach((node, index) => {
    if (index > 0) result.push(text("\n"));
    result.push(node);
  });
  if (loose && nodes.length > 0) result.push(text("\n"));
  return result;
}

const attr = (token: Token, name: string): string | null => {
  const value = token.attrGet(name);
  return value === null ? null : String(value);
};

function plainText(tokens: Token[]): string {
  return tokens
    .map((t) => (t.children ? plainText(t.children) : t.type === "softbreak" ? "\n" : t.content))
    .join("");
}

function inline(tokens: Token[], naming: FootnoteNaming): Child[] {
  const stack: Child[][] = [[]];
  // Opening tokens whose element was skipped (linkify matches GFM would not link).
  const skipped: boolean[] = [];
  const top = () => stack[stack.length - 1] as Child[];
  const open = (node: Element) => {
    push(top(), node);
    stack.push(node.children);
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    switch (token.type) {
      case "text":
      case "text_special":
      case "html_inline":
        push(top(), text(token.content));
        break;
      case "softbreak":
        push(top(), text("\n"));
        break;
      case "hardbreak":
        push(top(), element("br"));
        push(top(), text("\n"));
        break;
      case "code_inline":
        push(top(), element("code", {}, [text(token.content)]));
        break;
      case "em_open":
        open(element("em"));
        break;
      case "strong_open":
        open(element("strong"));
        break;
      case "s_open":
        open(element("del"));
        break;
      case "link_open": {
        const label = tokens[i + 1]?.content ?? "";
        if (token.markup === "linkify" && !GFM_LITERAL.test(label) && !EMAIL.test(label)) {
          skipped.push(true);
          break;
        }
        skipped.push(false);
        const link = element("a");
        link.properties.href = defaultUrlTransform(attr(token, "href") ?? "");
        const title = attr(token, "title");
        if (title !== null) link.properties.title = title;
        open(link);
        break;
      }
      case "link_close":
        if (!skipped.pop()) stack.pop();
        break;
      case "em_close":
      case "strong_close":
      case "s_close":
        stack.pop();
        break;
      case "footnote_ref":
        push(top(), footnoteReference(token, naming));
        break;
      case "image": {
        const image = element("img");
        image.properties.src = defaultUrlTransform(attr(token, "src") ?? "");
        image.properties.alt = plainText(token.children ?? []);
        const title = attr(token, "title");
        if (title !== null) image.properties.title = title;
        push(top(), image);
        break;
      }
    }
  }
  return stack[0] as Child[];
}

// GFM footnotes as remark-rehype writes them: numbered by first reference, ids under the
// `user-content-` prefix react-markdown's sanitising uses, the notes in a section at the end.
const FOOTNOTE_PREFIX = "user-content-";
const safeLabel = (label: string) => parser.normalizeLink(foldLabel(label));
/** `-2`, `-3`… for a note's second and later references. */
const repeat = (subId: number) => (subId > 0 ? `-${subId + 1}` : "");
/** The id of a note in the list. */
const noteId = (label: string, { scope }: FootnoteNaming) =>
  `${FOOTNOTE_PREFIX}${scope}fn-${safeLabel(label)}`;
/** The id of a note's reference, its first or a later one. */
const referenceId = (label: string, subId: number, { scope }: FootnoteNaming) =>
  `${FOOTNOTE_PREFIX}${scope}fnref-${safeLabel(label)}${repeat(subId)}`;
/** The id of the notes' hidden heading, which every reference names as its description. */
const headingId = ({ scope }: FootnoteNaming) => `${scope}footnote-label`;

function footnoteReference(token: Token, naming: FootnoteNaming): Element {
  const { id, subId, label } = token.meta as { id: number; subId: number; label: string };
  const link = element(
    "a",
    {
      href: `#${noteId(label, naming)}`,
      id: referenceId(label, subId, naming),
      dataFootnoteRef: true,
      ariaDescribedBy: [headingId(naming)],
    },
    [text(String(id + 1))],
  );
  return element("sup", {}, [link]);
}

function footnoteBackReference(token: Token, naming: FootnoteNaming): Element {
  const { id, subId, label } = token.meta as { id: number; subId: number; label: string };
  const children: Child[] = [text("↩")];
  if (subId > 0) children.push(element("sup", {}, [text(String(subId + 1))]));
  return element(
    "a",
    {
      href: `#${referenceId(label, subId, naming)}`,
      dataFootnoteBackref: "",
      ariaLabel: naming.backTo(`${id + 1}${repeat(subId)}`),
      className: ["data-footnote-backref"],
    },
    children,
  );
}

function codeBlock(token: Token): Element {
  const language = parser.utils.unescapeAll(token.info).trim().split(/\s+/)[0];
  const properties: Properties = language ? { className: [`language-${language}`] } : {};
  // remark ends every non-empty code block with a newline, also one left open at the end.
  const code =
    token.content && !token.content.endsWith("\n") ? `${token.content}\n` : token.content;
  return element("pre", {}, [element("code", properties, [text(code)])]);
}

/** Turns a task item's leading `[ ]` / `[x]` into a disabled checkbox, as remark-gfm does. */
function taskCheckbox(paragraph: Element): boolean | null {
  const head = paragraph.children[0];
  if (head?.type !== "text") return null;
  const match = TASK.exec(head.value);
  if (!match) return null;
  const rest = head.value.slice(match[0].length);
  if (rest.trim() === "" && paragraph.children.length === 1) return null;
  const checked = match[1] !== " ";
  paragraph.children.splice(
    0,
    1,
    element("input", { type: "checkbox", checked, disabled: true }),
    ...(rest || paragraph.children.length > 1 ? [text(` ${rest}`)] : []),
  );
  return checked;
}

interface Frame {
  token: Token | null;
  children: Child[];
}

/** remark-rehype's list item: tight lists unwrap their paragraphs. */
function listItem(children: Child[], loose: boolean, tight: WeakSet<Element>): Element {
  const item = element("li");
  const first = children[0];
  if (first?.type === "element" && first.tagName === "p" && taskCheckbox(first) !== null) {
    item.properties.className = ["task-list-item"];
  }
  children.forEach((child, index) => {
    const paragraph = child.type === "element" && child.tagName === "p";
    if (loose || index !== 0 || !paragraph) item.children.push(text("\n"));
    if (paragraph && !loose && tight.has(child)) item.children.push(...child.children);
    else item.children.push(child);
  });
  const tail = children[children.length - 1];
  if (tail && (loose || tail.type !== "element" || tail.tagName !== "p")) {
    item.children.push(text("\n"));
  }
  return item;
}

function cell(token: Token, children: Child[]): Element {
  const align = ALIGN.exec(attr(token, "style") ?? "")?.[1];
  return element(token.tag, align ? { align } : {}, children);
}

// The references of the last document's definitions, parsed once for all of its pieces.
let definitionsParsed: { source: string; references: NonNullable<Env["references"]> } = {
  source: "",
  references: {},
};

function envWith(definitions: string): Env {
  if (definitions === "") return {};
  if (definitionsParsed.source !== definitions) {
    const env: Env = {};
    parser.parse(definitions, env);
    definitionsParsed = { source: definitions, references: env.references ?? {} };
  }
  // A copy: markdown-it adds the piece's own definitions to it, after the document's first ones.
  return { references: { ...definitionsParsed.references } };
}

/**
 * Converts markdown to the hast tree react-markdown renders (GFM, no raw HTML, safe URLs).
 * `definitions` are the whole document's link reference definitions when this is one piece;
 * `footnotes`, the notes its earlier pieces referenced (its own list of notes is then left out);
 * `naming`, how its notes are named.
 */
export function markdownToHast(
  markdown: string,
  definitions = "",
  footnotes?: FootnotesBefore,
  naming = REMARK_FOOTNOTE_NAMING,
): Root {
  const env = envWith(definitions);
  if (footnotes === undefined) return tokensToHast(parser.parse(markdown, env), naming);
  Object.assign(env, footnoteEnv(footnotes));
  const tokens = parser.parse(markdown, env);
  // A piece's own list would hold only the notes seen so far; the text's list comes after the last.
  const list = tokens.findIndex((token) => token.type === "footnote_block_open");
  return tokensToHast(list === -1 ? tokens : tokens.slice(0, list), naming);
}

/** The notes' list of a text rendered in pieces, for after its last piece. */
export function footnoteListToHast(ledger: FootnoteLedger, naming = REMARK_FOOTNOTE_NAMING): Root {
  return tokensToHast(ledger.listTokens(), naming);
}

function tokensToHast(tokens: Token[], naming: FootnoteNaming): Root {
  const tight = new WeakSet<Element>();
  const stack: Frame[] = [{ token: null, children: [] }];
  // Items of an open list, kept raw until the list closes and its looseness is known.
  const listItems: Child[][][] = [];
  for (const token of tokens) {
    const frame = stack[stack.length - 1] as Frame;
    if (token.nesting === 1) {
      if (token.type === "bullet_list_open" || token.type === "ordered_list_open") {
        listItems.push([]);
      }
      stack.push({ token, children: [] });
      continue;
    }
    if (token.nesting === 0) {
      if (token.type === "inline") frame.children.push(...inline(token.children ?? [], naming));
      else if (token.type === "fence" || token.type === "code_block") {
        frame.children.push(codeBlock(token));
      } else if (token.type === "hr") frame.children.push(element("hr"));
      else if (token.type === "footnote_anchor") {
        const { subId } = token.meta as { subId: number };
        if (subId >= MAX_BACK_REFERENCES) continue;
        // In the note's last paragraph after a space; between two of a note's anchors, a space.
        if (frame.token?.type === "paragraph_open" || subId > 0) push(frame.children, text(" "));
        push(frame.children, footnoteBackReference(token, naming));
      } else if (token.type === "html_block") {
        frame.children.push(text(token.content.replace(/\n$/, "")));
      }
      continue;
    }
    stack.pop();
    const open = frame.token as Token;
    const parent = (stack[stack.length - 1] as Frame).children;
    switch (token.type) {
      case "paragraph_close": {
        const paragraph = element("p", {}, frame.children);
        if (open.hidden) tight.add(paragraph);
        parent.push(paragraph);
        break;
      }
      case "list_item_close":
        listItems[listItems.length - 1]?.push(frame.children);
        break;
      case "bullet_list_close":
      case "ordered_list_close": {
        const items = listItems.pop() ?? [];
        const loose = items.some((c) =>
          c.some((n) => n.type === "element" && n.tagName === "p" && !tight.has(n)),
        );
        const lis = items.map((c) => listItem(c, loose, tight));
        const properties: Properties = {};
        const start = attr(open, "start");
        if (start !== null) properties.start = Number(start);
        if (lis.some((li) => li.properties.className))
          properties.className = ["contains-task-list"];
        // Without remark-rehype's newlines between items: whitespace between list items is
        // never rendered, and in a long list it was one text node (and fiber) in seven.
        parent.push(element(open.tag, properties, lis));
        break;
      }
      case "th_close":
      case "td_close":
        parent.push(cell(open, frame.children));
        break;
      case "footnote_close": {
        const { label } = open.meta as { label: string };
        parent.push(element("li", { id: noteId(label, naming) }, wrap(frame.children, true)));
        break;
      }
      case "footnote_block_close": {
        const heading = element("h2", { className: ["sr-only"], id: headingId(naming) }, [
          text(naming.heading),
        ]);
        const list = element("ol", {}, wrap(frame.children, true));
        parent.push(
          element("section", { dataFootnotes: true, className: ["footnotes"] }, [
            heading,
            text("\n"),
            list,
            text("\n"),
          ]),
        );
        break;
      }
      case "blockquote_close":
      case "table_close":
      case "thead_close":
      case "tbody_close":
      case "tr_close":
        parent.push(element(open.tag, {}, wrap(frame.children, true)));
        break;
      default:
        parent.push(element(open.tag, {}, frame.children));
    }
  }
  return { type: "root", children: wrap((stack[0] as Frame).children, false) };
}
