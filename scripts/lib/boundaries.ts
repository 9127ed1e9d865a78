// The layers import downward only: web and server never import each other, the protocol
// imports nothing of ours (DESIGN §1), and src/shared holds plain code both sides run (no
// packages, no Node or DOM). Biome cannot express layer rules, so this does.
import { dirname, relative, resolve } from "node:path";

export const layers: Record<string, string[]> = {
  "src/protocol": ["src/protocol"],
  "src/shared": ["src/shared"],
  "src/server": ["src/server", "src/protocol", "src/shared"],
  "src/web": ["src/web", "src/protocol", "src/shared", "locales"],
};

// Every way a module names another: `import … from`, `export … from`, bare side-effect
// `import "x"`, dynamic `import("x")` and CommonJS `require("x")`.
const specifierPatterns = [
  /(?:^|[\s;}])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']/g,
  /(?:^|[\s;}])import\s*["']([^"']+)["']/g,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  /\brequire\(\s*["']([^"']+)["']\s*\)/g,
];

/**
 * Modules only the named files may import. The test clock's stepping end stays in the CLI,
 * which wires it to the parent's IPC channel (the parent's end is testing/serverClock.ts), so
 * no route, socket or tool can hold it.
 */
export const restricted: Record<string, string[]> = {
  "src/server/testClock.ts": ["src/server/cli.ts", "src/server/testing/serverClock.ts"],
};

export function importedSpecifiers(text: string): string[] {
  const found: string[] = [];
  for (const pattern of specifierPatterns)
    for (const match of text.matchAll(pattern)) if (match[1]) found.push(match[1]);
  return found;
}

/** What `file` (a path relative to `root`, inside `layer`) imports that its layer may not. */
export function boundaryProblems(root: string, layer: string, file: string, text: string) {
  const allowed = layers[layer] ?? [];
  const problems: string[] = [];
  for (const spec of importedSpecifiers(text)) {
    if (!spec.startsWith(".")) {
      if (layer === "src/protocol" && spec !== "zod/mini" && spec !== "zod")
        problems.push(`${file}: the protocol imports only zod, not "${spec}"`);
      if (layer === "src/shared" && !/\.test\.tsx?$/.test(file))
        problems.push(`${file}: shared code imports no packages, not "${spec}"`);
      continue;
    }
    const target = relative(root, resolve(dirname(resolve(root, file)), spec));
    const only = restricted[target];
    if (only && !only.includes(file) && !/\.test\.tsx?$/.test(file))
      problems.push(`${file}: only ${only.join(", ")} may import ${target}`);
    if (!allowed.some((prefix) => target === prefix || target.startsWith(`${prefix}/`)))
      problems.push(`${file}: ${layer} may not import "${spec}" (${target})`);
  }
  return problems;
}
