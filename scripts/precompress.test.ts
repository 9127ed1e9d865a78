import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { tempDir } from "../src/server/testing/helpers.ts";
import { writeCompressedCopies } from "./precompress.ts";

describe("the build's precompress step", () => {
  it("writes .br and .gz beside each text asset worth compressing, and skips the rest", () => {
    const dir = tempDir();
    try {
      const script = "export const x = 1;\n".repeat(200);
      mkdirSync(join(dir.path, "assets"));
      writeFileSync(join(dir.path, "assets", "app.js"), script);
      writeFileSync(join(dir.path, "tiny.css"), "a{}");
      writeFileSync(join(dir.path, "logo.png"), Buffer.alloc(4096));

      const result = writeCompressedCopies(dir.path);
      expect(result.files).toBe(1);
      const br = readFileSync(join(dir.path, "assets", "app.js.br"));
      expect(brotliDecompressSync(br).toString()).toBe(script);
      const gz = readFileSync(join(dir.path, "assets", "app.js.gz"));
      expect(gunzipSync(gz).toString()).toBe(script);
      expect(existsSync(join(dir.path, "tiny.css.br"))).toBe(false);
      expect(existsSync(join(dir.path, "logo.png.br"))).toBe(false);
    } finally {
      dir.remove();
    }
  });

  it("[W1] compresses a file under 1 kB too when brotli saves bytes: index.html and the runtime chunk come before the first card (issue 15)", () => {
    const dir = tempDir();
    try {
      const page = `<!doctype html>\n<html lang="en">\n${'  <link rel="modulepreload" href="/assets/chunk.js">\n'.repeat(12)}</html>\n`;
      expect(page.length).toBeLessThan(1024);
      writeFileSync(join(dir.path, "index.html"), page);
      writeFileSync(join(dir.path, "tiny.css"), "a{}");

      expect(writeCompressedCopies(dir.path).files).toBe(1);
      const br = readFileSync(join(dir.path, "index.html.br"));
      expect(br.length).toBeLessThan(page.length / 2);
      expect(brotliDecompressSync(br).toString()).toBe(page);
      expect(gunzipSync(readFileSync(join(dir.path, "index.html.gz"))).toString()).toBe(page);
      expect(existsSync(join(dir.path, "tiny.css.br"))).toBe(false);
      expect(existsSync(join(dir.path, "tiny.css.gz"))).toBe(false);
    } finally {
      dir.remove();
    }
  });
});
