import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** What the built page is made from; a change to any of it makes dist/ stale. */
const SOURCES = [
  "src/web",
  "src/protocol",
  "locales",
  "public",
  "index.html",
  "vite.config.ts",
  "scripts/precompress.ts",
];

/** Tests are not part of the page: editing one leaves dist/ as it is. */
const TEST_FILE = /\.test\.tsx?$/;

// Every start walks these sources (issue 15: restart): directories are told apart by their
// listing, so only files are stat'ed, and paths are joined as strings (path.join costs more).
function newestMtime(path: string): number {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(path);
  } catch {
    return 0;
  }
  return info.isDirectory() ? newestIn(path) : info.mtimeMs;
}

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (TEST_FILE.test(entry.name)) continue;
    const path = `${dir}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : newestMtime(path));
  }
  return newest;
}

export function pageIsStale(root: string, distDir = join(root, "dist")): boolean {
  const built = newestMtime(join(distDir, "index.html"));
  if (built === 0) return true;
  return SOURCES.some((source) => newestMtime(join(root, source)) > built);
}

/**
 * Runs Vite's production build when dist/ is missing or older than its sources. Vite's own
 * command line, in a child process: the server never loads Vite, so its bundle needs no
 * dynamic import (which a script run from V8's code cache cannot do).
 */
export async function buildPageIfStale(root: string): Promise<"fresh" | "built"> {
  if (!pageIsStale(root)) return "fresh";
  const vitePackage = createRequire(join(root, "package.json")).resolve("vite/package.json");
  const vite = spawn(
    process.execPath,
    [join(dirname(vitePackage), "bin", "vite.js"), "build", "--logLevel", "warn"],
    { cwd: root, stdio: ["ignore", "inherit", "inherit"] },
  );
  const code = await new Promise<number | null>((done, fail) => {
    vite.once("error", fail);
    vite.once("exit", done);
  });
  if (code !== 0) throw new Error(`vite build exited with ${code}`);
  return "built";
}
