// The server as one CommonJS file (dist-server/server.cjs), so `npm start` runs it with plain
// node: no TypeScript transform, one file instead of hundreds of modules, and (being a script,
// not an ES module) compiled from V8's code cache on later starts. Plain .mjs because it runs
// before anything can compile TypeScript.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLE, freshBundle, mtimeOf, OUT_DIR, STAMP } from "./bundleStamp.cjs";

export { freshBundle, OUT_DIR };

const ENTRY = "src/server/cli.ts";
const SETTINGS = ["scripts/serverBundle.mjs", "package.json", "package-lock.json", "tsconfig.json"];

/**
 * Heavy packages stay in node_modules: vite only loads when the page must be rebuilt, the model
 * SDKs only when a real model is chosen. better-sqlite3's JavaScript is bundled (required from
 * node_modules it took ≈10 ms of every start to resolve and compile, issue 15) and its addon is
 * loaded by path (store/database.ts).
 */
const EXTERNAL = ["vite", "openai", "@anthropic-ai/sdk"];

/**
 * zod's namespaces re-export all of its ≈60 locales (≈350 KB), which the bundle would load and
 * initialise at every start; the server only configures English (ws/readFrame.ts). Issue 15.
 */
const englishOnlyZod = {
  name: "english-only-zod",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)$/.test(dirname(args.importer))
        ? {
            path: "zod/v4/locales (English only)",
            namespace: "zod-en",
            pluginData: args.resolveDir,
          }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-en" }, (args) => ({
      contents: 'export { default as en } from "../locales/en.js";',
      resolveDir: args.pluginData,
    }));
  },
};

/**
 * Packages that require more at load than the server ever calls (issue 15). Each `shim`
 * stands in for `specifier` when `importer` requires it.
 */
const SHIMS = [
  {
    // @fastify/static calls glob (with minimatch, minipass, path-scurry, lru-cache) only to
    // list a `wildcard: false` root, which the server never asks for: loaded on first call.
    importer: /[\\/]@fastify[\\/]static[\\/]index\.js$/,
    specifier: "glob",
    shim: 'export async function glob(...args) { return (await import("glob")).glob(...args); }',
  },
  {
    // fastify's plugin version check calls three of semver's functions; the package index
    // loads all 47 of its modules.
    importer: /[\\/]fastify[\\/]lib[\\/]plugin-utils\.js$/,
    specifier: "semver",
    shim: [
      'export { default as coerce } from "semver/functions/coerce.js";',
      'export { default as gt } from "semver/functions/gt.js";',
      'export { default as satisfies } from "semver/functions/satisfies.js";',
    ].join("\n"),
  },
  {
    // @fastify/send makes its errors with http-errors, whose module makes a class for every
    // HTTP error status when it loads (≈4 ms): loaded when a file first fails to send.
    importer: /[\\/]@fastify[\\/]send[\\/]lib[\\/]createHttpError\.js$/,
    specifier: "http-errors",
    shim: 'module.exports = (...args) => require("http-errors")(...args);',
  },
  {
    // zod's classic namespace re-exports fromJSONSchema, whose module copies every schema and
    // check into one object when it loads (≈5 ms); the server never converts from JSON Schema.
    importer: /[\\/]zod[\\/]v4[\\/]classic[\\/]external\.js$/,
    specifier: "./from-json-schema.js",
    shim: 'export function fromJSONSchema(...args) { return require("./from-json-schema.js").fromJSONSchema(...args); }',
  },
  // Node's http2 and https (fastify: only for `http2` or `https` options), zlib (ws: only for
  // permessage-deflate, which the server does not offer), https and tls (ws: only as a client)
  // take a few ms each to load: loaded on first use.
  builtinOnFirstUse(/[\\/]fastify[\\/]lib[\\/]server\.js$/, "node:http2"),
  builtinOnFirstUse(/[\\/]fastify[\\/]lib[\\/]server\.js$/, "node:https"),
  builtinOnFirstUse(/[\\/]ws[\\/]lib[\\/]permessage-deflate\.js$/, "zlib"),
  builtinOnFirstUse(/[\\/]ws[\\/]lib[\\/]websocket\.js$/, "https"),
  builtinOnFirstUse(/[\\/]ws[\\/]lib[\\/]websocket\.js$/, "tls"),
];

/** A stand-in for a built-in module that requires it when one of its properties is first read. */
function builtinOnFirstUse(importer, specifier) {
  return {
    importer,
    specifier,
    shim: [
      "let loaded;",
      `const load = () => (loaded ??= require(${JSON.stringify(specifier)}));`,
      "module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });",
    ].join("\n"),
  };
}

const startupShims = {
  name: "startup-shims",
  setup(build) {
    for (const [index, { importer, specifier }] of SHIMS.entries()) {
      const filter = new RegExp(`^${specifier}$`);
      build.onResolve({ filter }, (args) =>
        importer.test(args.importer)
          ? {
              path: `${specifier} (shim)`,
              namespace: "startup-shim",
              pluginData: { index, dir: args.resolveDir },
            }
          : undefined,
      );
    }
    build.onLoad({ filter: /.*/, namespace: "startup-shim" }, (args) => ({
      contents: SHIMS[args.pluginData.index].shim,
      resolveDir: args.pluginData.dir,
    }));
  },
};

/** CommonJS's module wrapper, strict like the ES modules the bundle is made from. */
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {"use strict";';
const WRAPPER_END = "})";

function writeWhole(path, contents) {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, contents);
  renameSync(temp, path);
}

/** esbuild's options for the server bundle of the project at `root`. */
export function bundleOptions(root) {
  return {
    absWorkingDir: root,
    entryPoints: [ENTRY],
    outfile: join(root, OUT_DIR, BUNDLE),
    write: false,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: EXTERNAL,
    // What ES modules (ours, and packages such as fdir) ask import.meta, a script's wrapper has.
    define: { "import.meta.dirname": "__dirname", "import.meta.url": "__importMetaUrl" },
    // The file is one function expression, which the launcher compiles as it is: wrapped there
    // instead, the 2.9 MB source would be copied once more, onto the heap, on every start.
    banner: {
      js: `${WRAPPER_START}var __importMetaUrl = require("node:url").pathToFileURL(__filename).href;`,
    },
    footer: { js: WRAPPER_END },
    sourcemap: "linked",
    // Start-up reads and decodes the whole file: without comments and indentation it is a third
    // smaller, and pure ASCII (esbuild escapes the rest), so it decodes to a one-byte string.
    // Names stay as written, for readable stack traces; the licenses go to server.cjs.LEGAL.txt.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "external",
    metafile: true,
    logLevel: "warning",
    plugins: [englishOnlyZod, startupShims],
  };
}

/**
 * The bundled inputs a start runs before anything is asked of it: those the entry reaches by
 * static imports. One reached only through a dynamic import() runs when that import is made.
 */
export function startupInputs(metafile) {
  const reached = new Set([ENTRY]);
  for (const input of reached) {
    for (const entry of metafile.inputs[input]?.imports ?? []) {
      if (entry.kind !== "dynamic-import" && !entry.external) reached.add(entry.path);
    }
  }
  return reached;
}

const PACKAGE_ROOT = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//;

/**
 * The files whose times say whether the bundle is fresh: every bundled source; of a bundled
 * package only its package.json, which npm writes anew with the package (checking each of the
 * ≈630 package files took ≈15 ms of every start, issue 15: restart); npm's record of the
 * installed tree; and what steers resolution and compilation without being an input. As with
 * Vite's dependency cache, a hand edit inside node_modules needs `npm run build:server`.
 */
export function stampedFiles(bundled) {
  const files = new Set();
  for (const input of bundled) {
    const packageRoot = PACKAGE_ROOT.exec(input)?.[1];
    files.add(packageRoot === undefined ? input : `${packageRoot}/package.json`);
  }
  return [...files, "node_modules/.package-lock.json", ...SETTINGS];
}

/** Bundles the server; each file is swapped in whole, the stamp last. */
export async function buildBundle(root) {
  const { build } = await import("esbuild");
  const builtAt = Date.now();
  const outDir = join(root, OUT_DIR);
  const path = join(outDir, BUNDLE);
  const result = await build(bundleOptions(root));
  const lateImports = Object.values(result.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((entry) => entry.kind === "dynamic-import" && entry.external);
  if (lateImports.length > 0) {
    // A script compiled from cached data has no import() callback: use require() instead.
    throw new Error(`the server may not import() ${lateImports.map((e) => e.path).join(", ")}`);
  }
  mkdirSync(outDir, { recursive: true });
  for (const name of readdirSync(outDir)) {
    if (name.endsWith(".v8cache")) rmSync(join(outDir, name), { force: true });
  }
  for (const file of result.outputFiles) writeWhole(file.path, file.contents);
  const inputs = Object.fromEntries(
    stampedFiles(Object.keys(result.metafile.inputs))
      .filter((input) => existsSync(resolve(root, input)))
      .map((input) => [input, mtimeOf(resolve(root, input))]),
  );
  // Pure ASCII (as the minified bundle is) reads as latin1 to the same string, with less work.
  const bundleBytes = result.outputFiles.find((file) => file.path === path)?.contents ?? [];
  const encoding = bundleBytes.every((byte) => byte < 0x80) ? "latin1" : "utf8";
  writeWhole(join(outDir, STAMP), JSON.stringify({ builtAt, encoding, wrapped: true, inputs }));
  return { path, builtAt, encoding };
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
