import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildPage, repoRoot } from "./build.ts";

const SOURCES = [
  "package.json",
  "tsconfig.json",
  "vite.config.ts",
  "index.html",
  "src",
  "scripts",
  "locales",
];

/**
 * A copy of the project as a user would have it after a first `npm start`: sources, the
 * shared node_modules (linked), and a fresh dist/ and dist-server/ written after the sources,
 * so neither the page nor the server is rebuilt. The repository's own dist/ is never touched.
 */
export async function makeBuiltTree(
  options: { fresh?: boolean } = {},
): Promise<{ root: string; remove(): void }> {
  const root = mkdtempSync(join(tmpdir(), "plangate-bench-tree-"));
  for (const source of SOURCES) {
    cpSync(join(repoRoot, source), join(root, source), {
      recursive: true,
      filter: (path) => !/\.test\.tsx?$/.test(path),
    });
  }
  symlinkSync(join(repoRoot, "node_modules"), join(root, "node_modules"), "dir");
  // A fresh clone: no page and no server bundle yet, so the first start builds both.
  if (options.fresh) return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
  const { outDir } = await buildPage();
  mkdirSync(join(root, "dist"));
  cpSync(outDir, join(root, "dist"), { recursive: true });
  execFileSync(process.execPath, ["scripts/serverBundle.mjs"], { cwd: root, stdio: "inherit" });
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
