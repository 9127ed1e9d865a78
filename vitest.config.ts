import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { serverFrameProgram } from "./scripts/serverFrameProgram.ts";

export default defineConfig({
  plugins: [react(), serverFrameProgram()],
  test: {
    globals: true,
    include: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    environment: "node",
    setupFiles: ["src/test-setup.ts"],
    testTimeout: 20_000,
  },
});
