import type { Plugin } from "vite";

// markdown-it's published build defines its class fields through a `_defineProperty(this,
// "name", value)` helper (its compiler's class-field downlevel). The helper writes every field
// through one keyed store, so V8 treats each token's construction as megamorphic: in a 300 KB
// plan, a third or more of the parse (issue 15, bench/experiments/planTasks.ts profile). The same
// fields assigned directly (`this.name = value`) parse a long list ~2× faster; the result is the
// same object (no class here has an accessor of those names, and the order is kept).
const FIELD = /_defineProperty\(\s*this,\s*(?:\/\*[\s\S]*?\*\/\s*)?"(\w+)",\s*([^;]*?)\s*\);/g;

/** The module's `_defineProperty(this, "name", value);` calls as `this.name = value;`. */
export function assignClassFields(code: string): string {
  return code.replace(FIELD, (_, name: string, value: string) => `this.${name} = ${value};`);
}

const MARKDOWN_IT = /[\\/]node_modules[\\/]markdown-it[\\/]dist[\\/][^\\/]+\.m?js$/;

/** Vite plugin: markdown-it's class fields assigned directly (see assignClassFields). */
export function markdownItFields(): Plugin {
  return {
    name: "plangate-markdown-it-fields",
    transform(code, id) {
      if (!MARKDOWN_IT.test(id.replace(/\?.*$/, ""))) return undefined;
      return { code: assignClassFields(code), map: null };
    },
  };
}
