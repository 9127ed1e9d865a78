import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/chromium.ts";

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  snapshotPathTemplate: "goldens/{arg}{ext}",
  fullyParallel: false,
  // Two spec files at a time even on two cores (Playwright's default there is one): much of a
  // test's time is waiting on its server, the page's socket and the server's real countdowns.
  // On a heavily loaded machine, --workers=1.
  workers: 2,
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
