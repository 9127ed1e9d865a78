import { defineConfig } from "@playwright/test";

const cacheDir = new URL("./.cache/chromium/", import.meta.url).pathname;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  snapshotPathTemplate: "goldens/{arg}{ext}",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // A missing golden must fail CI instead of being written silently.
  updateSnapshots: process.env.CI ? "none" : "missing",
  expect: {
    timeout: 10_000,
    toHaveScreenshot: { maxDiffPixelRatio: 0.002, animations: "disabled", caret: "hide" },
  },
  use: {
    browserName: "chromium",
    viewport: { width: 1200, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
        "--font-render-hinting=none",
      ],
      env: {
        ...process.env,
        XDG_CONFIG_HOME: `${cacheDir}config`,
        XDG_CACHE_HOME: `${cacheDir}cache`,
      },
    },
    trace: "retain-on-failure",
  },
});
