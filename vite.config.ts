import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { markdownItFields } from "./scripts/classFields.ts";
import { markdownItEntities } from "./scripts/markdownItEntities.ts";
import { preactAliases } from "./scripts/preactAliases.ts";
import { precompress } from "./scripts/precompress.ts";
import { serverFrameProgram } from "./scripts/serverFrameProgram.ts";

export default defineConfig({
  // Fast Refresh drives React's own reconciler, which the page does not run (preactAliases):
  // an edited component reloads the page in development.
  plugins: [
    react({ refreshExclude: /./ }),
    serverFrameProgram(),
    markdownItFields(),
    markdownItEntities(),
    precompress(),
  ],
  // The plan-lines worker parses with markdown-it too.
  worker: { plugins: () => [markdownItFields(), markdownItEntities()] },
  resolve: { alias: preactAliases },
  build: {
    // Every browser the page supports preloads modules natively: no polyfill before the app.
    modulePreload: { polyfill: false },
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      // U2: the service worker is its own entry, served as /sw.js so its scope is the whole app.
      input: { index: "index.html", sw: "src/web/pwa/serviceWorker.ts" },
      // zod's builders have no side effects: schemas the page never uses drop out (issue 15).
      treeshake: { manualPureFunctions: ["z"] },
      output: {
        entryFileNames: (chunk) => (chunk.name === "sw" ? "sw.js" : "assets/[name]-[hash].js"),
        // A page namespace's copy (src/web/i18n/resources.ts) says whose it is: copy.zh-CN.inbox.
        chunkFileNames: (chunk) => {
          const copy = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(chunk.facadeModuleId ?? "");
          return copy ? `assets/copy.${copy[1]}.${copy[2]}-[hash].js` : "assets/[name]-[hash].js";
        },
      },
    },
  },
  server: { host: "127.0.0.1" },
});
