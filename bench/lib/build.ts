import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build, type Rolldown } from "vite";

export const repoRoot = resolve(import.meta.dirname, "../..");

export interface BuiltPage {
  outDir: string;
  output: Rolldown.RolldownOutput;
  remove(): void;
}

const builds = new Map<string, Promise<BuiltPage>>();

/**
 * The production build of the page, made once per benchmark process into a temp folder.
 * For CPU profiles: `minify: false` keeps names readable, `sourcemap` maps them to packages.
 */
export function buildPage(
  options: { minify?: boolean; sourcemap?: boolean } = {},
): Promise<BuiltPage> {
  const minify = options.minify ?? true;
  const sourcemap = options.sourcemap ?? false;
  const key = `${minify}/${sourcemap}`;
  let built = builds.get(key);
  if (!built) {
    built = (async () => {
      const outDir = mkdtempSync(join(tmpdir(), "plangate-bench-dist-"));
      const result = await build({
        root: repoRoot,
        logLevel: "silent",
        build: { outDir, emptyOutDir: true, minify, sourcemap, reportCompressedSize: false },
      });
      const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput;
      if (!output || !("output" in output)) throw new Error("vite build returned no output");
      const remove = () => rmSync(outDir, { recursive: true, force: true });
      process.once("exit", remove);
      return { outDir, output, remove };
    })();
    builds.set(key, built);
  }
  return built;
}
