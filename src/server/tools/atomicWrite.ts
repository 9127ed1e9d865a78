import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** `.<name>.<12 hex>.tmp`, the temp file name below; nothing else is ever removed. */
const TEMP_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;
/** An atomic write takes milliseconds; a temp file this old was left by a killed process. */
const ABANDONED_AFTER_MS = 60_000;

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
}

/**
 * Writes a whole file so that readers see either the old content or the new, never half:
 * the text goes to a temporary file beside the target, which is then renamed over it.
 * Missing directories are created; an existing file keeps its permission bits. The signal is
 * checked before the rename, so a cancelled write leaves the target as it was.
 */
export async function writeFileAtomic(
  path: string,
  content: string,
  signal?: AbortSignal,
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const existing = await stat(path).catch(() => undefined);
  const temp = tempPathFor(path);
  try {
    await writeFile(temp, content, {
      encoding: "utf8",
      flag: "wx",
      ...(existing ? { mode: existing.mode & 0o777 } : {}),
      ...(signal ? { signal } : {}),
    });
    signal?.throwIfAborted();
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * R13: removes the temp files of atomic writes that a killed process never renamed, anywhere
 * in the workspace (`.zcode/` included, dependencies and git internals skipped). Only names
 * of exactly that form and older than a minute go, so a write in progress is left alone.
 * Returns the removed paths.
 */
export async function removeAbandonedTempFiles(
  workspace: string,
  now = Date.now(),
): Promise<string[]> {
  // Loaded here, not at start-up: the walk runs once, after the first page (issue 15).
  const { glob } = await import("tinyglobby");
  const candidates = await glob("**/.*.tmp", {
    cwd: workspace,
    dot: true,
    absolute: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    expandDirectories: false,
    ignore: ["**/node_modules/**", "**/.git/**"],
  });
  const removed: string[] = [];
  for (const path of candidates) {
    if (!TEMP_NAME.test(basename(path))) continue;
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile() || now - info.mtimeMs < ABANDONED_AFTER_MS) continue;
    await rm(path, { force: true });
    removed.push(path);
  }
  return removed;
}
