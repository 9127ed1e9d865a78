import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { markdownItFields } from "./scripts/classFields.ts";
import { markdownItEntities } from "./scripts/markdownItEntities.ts";
import { preactAliases } from "./scripts/preactAliases.ts";
import { serverFrameProgram } from "./scripts/serverFrameProgram.ts";

export default defineConfig({
  plugins: [react(), serverFrameProgram(), markdownItFields(), markdownItEntities()],
  resolve: {
    alias: [
      ...preactAliases,
      // Its CommonJS build requires react-dom past the aliases; the ES build imports it.
      {
        find: /^@testing-library\/react$/,
        replacement: "@testing-library/react/dist/@testing-library/react.esm.js",
      },
    ],
  },
  test: {
    globals: true,
    include: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    environment: "node",
    setupFiles: ["src/test-setup.ts"],
    // markdown-it through the plugins, as the page has it: the parity tests hold its rewrite.
    // Packages that import react go through the aliases too, so a test runs one runtime.
    server: {
      deps: { inline: ["markdown-it", "@testing-library/react", "react-markdown", "zustand"] },
    },
    // One PostgreSQL cluster for the whole run (each file makes its own databases on it).
    globalSetup: ["src/server/testing/postgresGlobalSetup.ts"],
    // Two files at a time even on two cores (vitest's default there is one): much of the time
    // goes to waiting on child servers, PostgreSQL and timers. Measured at quiet load on 2 cores:
    // 204 s with one, 136 s with two. On a heavily loaded machine, --maxWorkers=1.
    maxWorkers: 2,
    testTimeout: 20_000,
  },
});
