import { readFileSync } from "node:fs";
import { join } from "node:path";
import config from "../playwright.config.ts";

const root = join(import.meta.dirname, "..");
const scripts = (
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts;

describe("goldens", () => {
  it("[STYLE 7] a missing golden fails the run: Playwright never writes one on its own", () => {
    expect(config.updateSnapshots).toBe("none");
    expect(config.snapshotPathTemplate).toBe("goldens/{arg}{ext}");
  });

  it("[STYLE 7] only the explicit goldens command writes them; the test commands never do", () => {
    expect(scripts.goldens).toMatch(/playwright test --update-snapshots/);
    for (const name of ["test", "e2e", "unit"]) {
      expect(scripts[name]).not.toMatch(/update-snapshots|-u\b/);
    }
  });
});
