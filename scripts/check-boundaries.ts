// The three layers import downward only: web and server never import each other, and the
// protocol imports nothing of ours (DESIGN §1). Biome cannot express layer rules, so this does.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const layers: Record<string, string[]> = {
  "src/protocol": ["src/protocol"],
  "src/server": ["src/server", "src/protocol"],
  "src/web": ["src/web", "src/protocol", "locales"],
};

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(name)) yield path;
  }
}

const importPattern =
  /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const problems: string[] = [];
for (const [layer, allowed] of Object.entries(layers)) {
  for (const file of sourceFiles(join(root, layer))) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(importPattern)) {
      const spec = match[1] ?? match[2] ?? "";
      if (!spec.startsWith(".")) {
        if (layer === "src/protocol" && spec !== "zod/mini" && spec !== "zod")
          problems.push(`${relative(root, file)}: the protocol imports only zod, not "${spec}"`);
        continue;
      }
      const target = relative(root, resolve(dirname(file), spec));
      if (!allowed.some((prefix) => target === prefix || target.startsWith(`${prefix}/`)))
        problems.push(`${relative(root, file)}: ${layer} may not import "${spec}" (${target})`);
    }
  }
}
if (problems.length > 0) {
  console.error(`Layer boundary violations:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log("layer boundaries: ok");
