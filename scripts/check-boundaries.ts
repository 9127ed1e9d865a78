import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { boundaryProblems, layers } from "./lib/boundaries.ts";
import { preactCompatProblems } from "./lib/preactCompat.ts";

const root = resolve(import.meta.dirname, "..");

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(name)) yield path;
  }
}

const problems: string[] = [];
for (const layer of Object.keys(layers))
  for (const path of sourceFiles(join(root, layer))) {
    const file = relative(root, path);
    const text = readFileSync(path, "utf8");
    problems.push(
      ...boundaryProblems(root, layer, file, text),
      ...preactCompatProblems(file, text),
    );
  }
if (problems.length > 0) {
  console.error(`Layer boundary and runtime violations:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log("layer boundaries: ok");
