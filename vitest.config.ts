import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  test: {
    globals: true,
    include: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    environment: "node",
    setupFiles: ["src/test-setup.ts"],
    // One PostgreSQL cluster for the whole run (each file makes its own databases on it).
    globalSetup: ["src/server/testing/postgresGlobalSetup.ts"],
    testTimeout: 20_000,
  },
});
