import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

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
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
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
