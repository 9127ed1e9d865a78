import type { Element, ElementContent, Properties, Root } from "hast";
import type { ElementType, ReactNode } from "react";
import { Fragment, jsx, jsxs } from "react/jsx-runtime";

// A row's whitespace between cells is not content, and a table cannot hold text.
const TABLE_PARTS = new Set(["table", "thead", "tbody", "tfoot", "tr"]);
const WHITESPACE = /^[ \t\n\f\r]*$/;
const UNSAFE_PROPERTY = /^(?:on|dangerouslySetInnerHTML$)/i;

/** What draws an element of a tag instead of the tag itself, as react-markdown's `components`. */
export type TagComponents = { readonly [tag: string]: ElementType | undefined };

/** The attribute of a hast data or ARIA property: `dataFootnoteRef`, `ariaDescribedBy`. */
function attributeName(name: string): string {
  if (/^data[A-Z]/.test(name))
    return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  if (/^aria[A-Z]/.test(name)) return `aria-${name.slice(4).toLowerCase()}`;
  return name;
}

function propsOf(properties: Properties, tag: string): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const name in properties) {
    const value = properties[name];
    if (value === null || value === undefined || Number.isNaN(value)) continue;
    // Markup and listeners never come from a tree: the runtime binds any on* prop as a handler.
    if (UNSAFE_PROPERTY.test(name)) continue;
    if (name === "align" && (tag === "td" || tag === "th") && typeof value === "string") {
      props.style = { textAlign: value };
      continue;
    }
    props[attributeName(name)] = Array.isArray(value) ? value.join(" ") : value;
  }
  return props;
}

function childrenOf(node: Root | Element, components: TagComponents): ReactNode[] {
  const children: ReactNode[] = [];
  const inTable = node.type === "element" && TABLE_PARTS.has(node.tagName);
  for (const child of node.children as ElementContent[]) {
    if (child.type === "text") {
      if (!(inTable && WHITESPACE.test(child.value))) children.push(child.value);
    } else if (child.type === "element") {
      children.push(toElement(child, components));
    }
  }
  return children;
}

// No keys: a piece's elements are static, and a changed piece is a new tree matched by place.
function create(type: unknown, props: Record<string, unknown>, children: ReactNode[]) {
  if (children.length === 1) props.children = children[0];
  else if (children.length > 1) props.children = children;
  // biome-ignore lint/suspicious/noExplicitAny: the runtime takes any element type
  return (children.length > 1 ? jsxs : jsx)(type as any, props);
}

function toElement(node: Element, components: TagComponents): ReactNode {
  const props = propsOf(node.properties, node.tagName);
  return create(components[node.tagName] ?? node.tagName, props, childrenOf(node, components));
}

/**
 * A markdown tree as elements, the way react-markdown's runtime builds them from the same tree
 * (a table's whitespace dropped, a cell's alignment as its style), for the few properties our
 * trees carry; the parity test holds the two together.
 */
export function hastToElements(tree: Root, components: TagComponents): ReactNode {
  return create(Fragment, {}, childrenOf(tree, components));
}
