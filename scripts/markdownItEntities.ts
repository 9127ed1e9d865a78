import { createRequire } from "node:module";
import { resolve } from "node:path";
import type { Plugin } from "vite";
import { MARKDOWN_IT_BUILD } from "./classFields.ts";

const MARKDOWN = resolve(import.meta.dirname, "../src/web/markdown");
const DECODER = resolve(MARKDOWN, "namedEntities.ts");
const TABLE = resolve(MARKDOWN, "entityTable.ts");
const MARKDOWN_IT_MANIFEST = createRequire(import.meta.url).resolve("markdown-it/package.json");

/**
 * Vite plugin (issue 15): markdown-it's `entities` import resolves to namedEntities.ts, a small
 * table that fetches the full one on demand (entityTable.ts, markdown-it's own copy of entities).
 */
export function markdownItEntities(): Plugin {
  return {
    name: "plangate-markdown-it-entities",
    enforce: "pre",
    resolveId(source, importer) {
      if (source !== "entities" || importer === undefined) return null;
      const from = importer.replace(/\?.*$/, "");
      if (MARKDOWN_IT_BUILD.test(from)) return DECODER;
      if (from === TABLE) return this.resolve(source, MARKDOWN_IT_MANIFEST, { skipSelf: true });
      return null;
    },
  };
}
