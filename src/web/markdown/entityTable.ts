// The full named-entity table, a chunk of its own that namedEntities.ts fetches on demand; the
// build resolves `entities` here to markdown-it's own copy (scripts/markdownItEntities.ts).
export { decodeHTMLStrict } from "entities";
