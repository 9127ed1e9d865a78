import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pageIsStale } from "./buildPage.ts";
import { tempDir } from "./testing/helpers.ts";

describe("page build check", () => {
  it("rebuilds when dist is missing or older than any source", () => {
    const dir = tempDir();
    try {
      const root = dir.path;
      mkdirSync(join(root, "src", "web", "deep"), { recursive: true });
      writeFileSync(join(root, "src", "web", "deep", "App.tsx"), "x");
      writeFileSync(join(root, "index.html"), "x");
      expect(pageIsStale(root)).toBe(true);

      mkdirSync(join(root, "dist"));
      writeFileSync(join(root, "dist", "index.html"), "built");
      const old = new Date(Date.now() - 60_000);
      utimesSync(join(root, "src", "web", "deep", "App.tsx"), old, old);
      utimesSync(join(root, "index.html"), old, old);
      expect(pageIsStale(root)).toBe(false);

      const later = new Date(Date.now() + 60_000);
      utimesSync(join(root, "src", "web", "deep", "App.tsx"), later, later);
      expect(pageIsStale(root)).toBe(true);
    } finally {
      dir.remove();
    }
  });

  it("[R1] leaves dist as it is when only a test changed, which is not part of the page (issue 15: restart)", () => {
    const dir = tempDir();
    try {
      const root = dir.path;
      mkdirSync(join(root, "src", "web", "deep"), { recursive: true });
      writeFileSync(join(root, "src", "web", "deep", "App.tsx"), "x");
      writeFileSync(join(root, "src", "web", "deep", "App.test.tsx"), "x");
      mkdirSync(join(root, "dist"));
      writeFileSync(join(root, "dist", "index.html"), "built");
      const old = new Date(Date.now() - 60_000);
      utimesSync(join(root, "src", "web", "deep", "App.tsx"), old, old);
      const later = new Date(Date.now() + 60_000);
      utimesSync(join(root, "src", "web", "deep", "App.test.tsx"), later, later);
      expect(pageIsStale(root)).toBe(false);

      utimesSync(join(root, "src", "web", "deep", "App.tsx"), later, later);
      expect(pageIsStale(root)).toBe(true);
    } finally {
      dir.remove();
    }
  });
});
