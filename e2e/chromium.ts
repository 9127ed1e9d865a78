import { join, resolve } from "node:path";
import type { LaunchOptions } from "@playwright/test";

const cacheDir = join(resolve(import.meta.dirname, ".."), ".cache", "chromium");

/**
 * Debian's Chromium, never a downloaded browser, with the flags this machine needs (no sandbox
 * as root, no background traffic on a closed network). Chromium writes into $HOME even with a
 * temp profile, so its config and cache go to a git-ignored folder of the project.
 */
export function chromiumLaunchOptions(extraArgs: string[] = []): LaunchOptions {
  return {
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
  };
}
