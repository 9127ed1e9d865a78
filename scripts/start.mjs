// `npm start`: runs the bundled server, rebuilding the bundle first when any of its sources
// changed (the server then rebuilds the page when stale, unless --no-build).
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { Script } from "node:vm";
import { ensureBundle } from "./serverBundle.mjs";

let bundle;
try {
  bundle = await ensureBundle(resolve(import.meta.dirname, ".."));
} catch (error) {
  console.error(`plangate: could not build the server (${error.message.split("\n")[0]}).`);
  process.exit(1);
}

// Node 20 keeps no code cache for modules, so the bundle runs as a script with V8's cached
// data: about a third less CPU to start. The cache is named after the build it belongs to.
const cacheFile = `${bundle.path}.${bundle.builtAt}.v8cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const source = readFileSync(bundle.path, bundle.encoding);
const script = new Script(
  // Strict like the ES modules it was bundled from: sloppy mode would let some errors pass silently.
  `(function (exports, require, module, __filename, __dirname) {"use strict";${source}\n})`,
  { filename: bundle.path, cachedData },
);
if (cachedData === undefined || script.cachedDataRejected) {
  let saved = false;
  const save = () => {
    if (saved) return;
    saved = true;
    try {
      const temp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(temp, script.createCachedData());
      renameSync(temp, cacheFile);
    } catch {
      // a read-only tree starts without the cache
    }
  };
  // Once start-up has compiled what it needs; or on the way out if that comes sooner.
  setTimeout(save, 1000).unref();
  process.once("exit", save);
}
const module = { exports: {} };
script
  .runInThisContext()
  .call(
    module.exports,
    module.exports,
    createRequire(bundle.path),
    module,
    bundle.path,
    dirname(bundle.path),
  );
