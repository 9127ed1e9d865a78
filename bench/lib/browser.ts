import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { repoRoot } from "./build.ts";

const cacheDir = join(repoRoot, ".cache", "chromium");

/** Debian's Chromium, headless, with the flags the e2e rig uses; never a downloaded browser. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
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
      ...extraArgs,
    ],
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(cacheDir, "config"),
      XDG_CACHE_HOME: join(cacheDir, "cache"),
    },
  });
}
