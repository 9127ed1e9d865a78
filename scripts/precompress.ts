import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|txt|map)$/;
/**
 * A copy must save more than its `content-encoding` header costs: index.html and the bundler's
 * runtime chunk (under 1 kB each, both before the first card) come at half their size (issue 15).
 */
const MIN_SAVED_BYTES = 64;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * Writes `.br` and `.gz` beside every text asset of the build, at the highest levels: the
 * server sends them as they are (@fastify/static `preCompressed`) and never compresses per request.
 */
export function writeCompressedCopies(outDir: string): { files: number; saved: number } {
  let count = 0;
  let saved = 0;
  for (const path of [...files(outDir)]) {
    if (!COMPRESSIBLE.test(path)) continue;
    const raw = readFileSync(path);
    const brotli = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    if (raw.length - brotli.length < MIN_SAVED_BYTES) continue;
    writeFileSync(`${path}.br`, brotli);
    const gzip = gzipSync(raw, { level: 9 });
    // A browser without brotli gets the file itself rather than a gzip that saves nothing.
    if (raw.length - gzip.length >= MIN_SAVED_BYTES) writeFileSync(`${path}.gz`, gzip);
    count += 1;
    saved += raw.length - brotli.length;
  }
  return { files: count, saved };
}

/** The Vite plugin that runs it once the bundle is on disk. */
export function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "plangate-precompress",
    apply: "build",
    configResolved(config) {
      // resolve, not join: an absolute outDir (the bench builds into a temp folder) stays as given.
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      writeCompressedCopies(outDir);
    },
  };
}
