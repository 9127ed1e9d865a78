"use strict";
// `npm start`: runs the bundled server, rebuilding the bundle first when any of its sources
// changed (the server then rebuilds the page when stale, unless --no-build). CommonJS: a start
// with a fresh bundle then never loads Node's ES module machinery (issue 15: restart).
const { readFileSync, renameSync, writeFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { dirname, resolve } = require("node:path");
const { Script } = require("node:vm");
const { subscribe, unsubscribe } = require("node:diagnostics_channel");
const { freshBundle } = require("./bundleStamp.cjs");

const root = resolve(__dirname, "..");
/** Node's channel for each HTTP response the server has finished sending. */
const RESPONSE_SENT = "http.server.response.finish";

function run(bundle) {
  // Node 20 keeps no code cache for modules, so the bundle runs as a script with V8's cached
  // data: about a third less CPU to start. The cache is named after the build it belongs to.
  const cacheFile = `${bundle.path}.${bundle.builtAt}.v8cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The file is CommonJS's module wrapper around the bundle (a function expression), so V8
  // compiles the string as read, with no copy to join a wrapper to it.
  const script = new Script(readFileSync(bundle.path, bundle.encoding), {
    filename: bundle.path,
    cachedData,
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      unsubscribe(RESPONSE_SENT, afterFirstResponse);
      try {
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // a read-only tree starts without the cache
      }
    };
    // With what a restart is timed by compiled too: the first response (the page's redirect)
    // and what closely follows it (the page, its assets, the socket). Else after start-up
    // alone; or on the way out if that comes sooner.
    let responded = false;
    const afterFirstResponse = () => {
      if (responded) return;
      responded = true;
      setTimeout(save, 500).unref();
    };
    subscribe(RESPONSE_SENT, afterFirstResponse);
    setTimeout(save, 10_000).unref();
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
}

const fresh = freshBundle(root);
if (fresh) {
  run(fresh);
} else {
  import("./serverBundle.mjs")
    .then(({ ensureBundle }) => ensureBundle(root))
    .then(run, (error) => {
      console.error(`plangate: could not build the server (${error.message.split("\n")[0]}).`);
      process.exit(1);
    });
}
