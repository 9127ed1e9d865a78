"use strict";
// Whether the server bundle on disk is fresh: all that a start with a built tree asks before
// running it. CommonJS, like the launcher, so a start never loads Node's ES module machinery.
const { readFileSync, statSync } = require("node:fs");
const { isAbsolute, join } = require("node:path");

const OUT_DIR = "dist-server";
const BUNDLE = "server.cjs";
const STAMP = "stamp.json";

function mtimeOf(path) {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Number.POSITIVE_INFINITY;
}

/**
 * The bundle when it was built from the files as they are now, else undefined. The stamp
 * holds the modification time of every file esbuild read (sources and bundled packages) and
 * of the build settings: an edit, a `git checkout`, an `npm install`, or an older copy put
 * back changes one, and so does a missing file. A time after `builtAt` means the file changed
 * while the build read it. `builtAt` also names the build's code cache.
 */
function freshBundle(root) {
  const outDir = join(root, OUT_DIR);
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(outDir, STAMP), "utf8"));
  } catch {
    return undefined;
  }
  // A bundle from before the file carried its own function wrapper would run as a bare script.
  if (stamp.wrapped !== true) return undefined;
  const path = join(outDir, BUNDLE);
  if (mtimeOf(path) === Number.POSITIVE_INFINITY) return undefined;
  // Every start checks some 850 files: joined as strings (the kernel resolves `..`), since
  // path.resolve on each took longer than the stat calls themselves.
  for (const [input, built] of Object.entries(stamp.inputs)) {
    const now = mtimeOf(isAbsolute(input) ? input : `${root}/${input}`);
    if (now !== built || now > stamp.builtAt) return undefined;
  }
  return { path, builtAt: stamp.builtAt, encoding: stamp.encoding ?? "utf8" };
}

exports.OUT_DIR = OUT_DIR;
exports.BUNDLE = BUNDLE;
exports.STAMP = STAMP;
exports.mtimeOf = mtimeOf;
exports.freshBundle = freshBundle;
