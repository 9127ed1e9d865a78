import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/chromium.ts";

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  snapshotPathTemplate: "goldens/{arg}{ext}",
  fullyParallel: false,
  // One spec file at a time: on two cores a second worker saved under a minute and made the
  // countdown and restart lanes miss their bounds (2026-12-04 CI run). Shared servers
  // (fixtures.ts) cut the server starts instead.
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // A missing golden fails everywhere; goldens are written only by `npm run goldens`.
  updateSnapshots: "none",
  expect: {
    timeout: 10_000,
    toHaveScreenshot: { maxDiffPixelRatio: 0.002, animations: "disabled", caret: "hide" },
  },
  use: {
    browserName: "chromium",
    viewport: { width: 1200, height: 800 },
    launchOptions: chromiumLaunchOptions(["--font-render-hinting=none"]),
    trace: "retain-on-failure",
  },
});
