import type { Root } from "hast";
import type { MouseEvent, ReactNode } from "react";
import type { Components } from "react-markdown";
import type { FootnoteLedger } from "./footnoteLedger.ts";
import type { FootnoteNaming } from "./footnoteNaming.ts";
import type { FootnotesBefore } from "./gfmFootnotes.ts";
import { hastToElements } from "./hastToElements.ts";
import { footnoteListToHast, markdownToHast } from "./markdownToHast.ts";

/**
 * A link within the text (a footnote, its way back) scrolls to its target in the same text: the
 * page's hash holds its route, so following the link itself would leave the session.
 */
function scrollWithinText(event: MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
  const link = event.currentTarget;
  const fragment = (link.getAttribute("href") ?? "").slice(1);
  let id = fragment;
  try {
    id = decodeURIComponent(fragment);
  } catch {
    // A malformed escape in an agent's link: look for the fragment as written.
  }
  const root = link.closest(".markdown") ?? link.ownerDocument;
  const target = [...root.querySelectorAll("[id]")].find((element) => element.id === id);
  target?.scrollIntoView({ block: "nearest" });
}

export const components: Components = {
  a({ node: _node, href, children, ...rest }) {
    // The default urlTransform blanks unsafe URLs (javascript:, data:…); show those as text.
    if (!href) return <span className="md-unsafe-link">{children}</span>;
    if (href.startsWith("#")) {
      return (
        <a {...rest} href={href} onClick={scrollWithinText}>
          {children}
        </a>
      );
    }
    return (
      <a {...rest} href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  },
  table({ node: _node, ...rest }) {
    return (
      <div className="md-table-scroll">
        <table {...rest} />
      </div>
    );
  },
  img({ node: _node, src, alt }) {
    if (!src) return <span>{alt}</span>;
    // R8: an image in agent markdown is never fetched by itself. A remote one would send data
    // out; a relative one reaches plangate's own routes with the person's cookie (`/?token=…`
    // once swapped the page's token). The person sees a link and decides whether to open it.
    return (
      <a
        href={src}
        title={src}
        target="_blank"
        rel="noopener noreferrer"
        referrerPolicy="no-referrer"
        className="md-remote-image"
      >
        {alt || src}
      </a>
    );
  },
};

// Elements are immutable, so a section's render is reused by every card showing the same text:
// a plan revision re-parses only the sections it changed.
const CACHE_CHARS = 2_000_000;
const cache = new Map<string, ReactNode>();
let cachedChars = 0;

const toElements = (tree: Root): ReactNode => hastToElements(tree, components);

/**
 * Markdown as React elements, built the way react-markdown builds them from the same tree.
 * `definitions`: the whole document's link reference definitions, when `text` is one piece;
 * `footnotes`: the notes its earlier pieces referenced, when the document has notes, and `naming`
 * how they are named.
 */
export function renderMarkdown(
  text: string,
  definitions = "",
  footnotes?: FootnotesBefore,
  naming?: FootnoteNaming,
): ReactNode {
  // A piece's footnote numbers depend on the pieces before it, and its ids on the text it is
  // part of: not cached.
  if (footnotes !== undefined && text.includes("[^")) {
    return toElements(markdownToHast(text, definitions, footnotes, naming));
  }
  // Definitions matter only to a piece that can hold a reference link.
  const used = definitions !== "" && text.includes("[") ? definitions : "";
  const key = used === "" ? text : `${used}\u0000${text}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const rendered = toElements(markdownToHast(text, used));
  cache.set(key, rendered);
  cachedChars += key.length;
  for (const [key] of cache) {
    if (cachedChars <= CACHE_CHARS) break;
    cache.delete(key);
    cachedChars -= key.length;
  }
  return rendered;
}

/** The notes' list of a text rendered in pieces (see FootnoteLedger), after its last piece. */
export function renderFootnoteList(ledger: FootnoteLedger, naming?: FootnoteNaming): ReactNode {
  return toElements(footnoteListToHast(ledger, naming));
}
