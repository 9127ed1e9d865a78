import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/**
 * plangate's own folder (where package.json is). Found by walking up rather than by a fixed
 * `../..`, so it is the same from src/ under tsx and from the bundle in dist-server/.
 */
export const projectRoot = findProjectRoot(import.meta.dirname);

/** The scenarios `scripted:<name>` plays; read from the sources, also by the bundle. */
export const scenariosDir = join(projectRoot, "src", "server", "models", "scripted", "scenarios");

/**
 * A package's entry as plangate's own require finds it: for the worker threads (a CommonJS file
 * loaded by path from the sources), which resolve nothing from where they are loaded.
 */
export function packageEntry(name: string): string {
  return createRequire(join(projectRoot, "package.json")).resolve(name);
}
