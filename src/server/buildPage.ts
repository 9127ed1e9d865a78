import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** What the built page is made from; a change to any of it makes dist/ stale. */
const SOURCES = ["src/web", "src/protocol", "locales", "index.html", "vite.config.ts"];

function newestMtime(path: string): number {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

export function pageIsStale(root: string, distDir = join(root, "dist")): boolean {
  const built = newestMtime(join(distDir, "index.html"));
  if (built === 0) return true;
  return SOURCES.some((source) => newestMtime(join(root, source)) > built);
}

/** Runs Vite's production build when dist/ is missing or older than its sources. */
export async function buildPageIfStale(root: string): Promise<"fresh" | "built"> {
  if (!pageIsStale(root)) return "fresh";
  const { build } = await import("vite");
  await build({ root, configFile: join(root, "vite.config.ts"), logLevel: "warn" });
  return "built";
}
