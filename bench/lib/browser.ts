import { type Browser, chromium } from "playwright-core";
import { chromiumLaunchOptions } from "../../e2e/chromium.ts";

/** Debian's Chromium, launched exactly as the e2e rig launches it. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions(extraArgs));
}
