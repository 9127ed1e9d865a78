// The server as one ESM file (dist-server/cli.mjs), so `npm start` loads it with plain node:
// no TypeScript transform and one module instead of hundreds. Plain .mjs because it runs
// before anything can compile TypeScript.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const OUT_DIR = "dist-server";
const ENTRY = "src/server/cli.ts";
const BUNDLE = "cli.mjs";
const STAMP = "stamp.json";

/**
 * Native or heavy packages stay in node_modules: better-sqlite3 is a native addon, vite only
 * loads when the page must be rebuilt, the model SDKs only when a real model is chosen.
 */
const EXTERNAL = ["better-sqlite3", "vite", "openai", "@anthropic-ai/sdk"];

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * The bundle's path when it was built from the files as they are now, else undefined. The
 * stamp lists every file esbuild read (sources and bundled packages) and this script, so an
 * edit, a `git checkout` or an `npm install` makes the bundle stale; a missing file does too.
 */
export function freshBundle(root) {
  const outDir = join(root, OUT_DIR);
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(outDir, STAMP), "utf8"));
  } catch {
    return undefined;
  }
  const bundle = join(outDir, BUNDLE);
  if (mtimeOf(bundle) === Number.POSITIVE_INFINITY) return undefined;
  for (const input of stamp.inputs) {
    if (mtimeOf(resolve(root, input)) > stamp.builtAt) return undefined;
  }
  return bundle;
}

function writeWhole(path, contents) {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, contents);
  renameSync(temp, path);
}

/** Bundles the server; each file is swapped in whole, the stamp last. */
export async function buildBundle(root) {
  const { build } = await import("esbuild");
  const builtAt = Date.now();
  const outDir = join(root, OUT_DIR);
  const bundle = join(outDir, BUNDLE);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [ENTRY],
    outfile: bundle,
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: EXTERNAL,
    // Bundled CommonJS packages call require() for node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
  });
  mkdirSync(outDir, { recursive: true });
  for (const file of result.outputFiles) writeWhole(file.path, file.contents);
  const inputs = [...Object.keys(result.metafile.inputs), "scripts/serverBundle.mjs"];
  writeWhole(join(outDir, STAMP), JSON.stringify({ builtAt, inputs }));
  return bundle;
}

/** The bundle to run: the one on disk when fresh, else a new build. */
export async function ensureBundle(root) {
  const fresh = freshBundle(root);
  if (fresh) return fresh;
  const built = await buildBundle(root);
  console.log(`plangate: built the server into ${OUT_DIR}/`);
  return built;
}

// `npm run build:server`: build now, whether stale or not.
if (resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url)) {
  await buildBundle(resolve(import.meta.dirname, ".."));
}
