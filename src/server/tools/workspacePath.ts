import type { Stats } from "node:fs";
import { realpathSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { accessTokenPath } from "../accessToken.ts";

/** The model asked for a path the file tools may not touch (R4); the message is model-facing. */
export class WorkspacePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkspacePathError";
  }
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The path as the model should see it: relative to the workspace, `.` for the root. */
export function displayPath(workspace: string, path: string): string {
  return relative(workspace, path) || ".";
}

/**
 * Resolves a model-given path against the workspace (an absolute real path) and refuses
 * anything that ends up outside it: `..` escapes, foreign absolute paths, and symbolic links
 * whose target lies outside. A path that does not exist yet is checked through its nearest
 * existing parent, so `link-out/new.txt` is refused too.
 */
export async function resolveInWorkspace(workspace: string, requested: string): Promise<string> {
  const target = resolve(workspace, requested.trim() === "" ? "." : requested);
  if (!isInside(workspace, target)) {
    throw new WorkspacePathError(
      `"${requested}" is outside the workspace. Use a path relative to the workspace root.`,
    );
  }
  const real = await nearestRealPath(target);
  if (!isInside(workspace, real)) {
    throw new WorkspacePathError(
      `"${requested}" goes through a symbolic link that leads outside the workspace, so it cannot be used.`,
    );
  }
  // R9/W8: the stored access token is plangate's own secret, never a file the agent may touch.
  const tokenFile = accessTokenPath(workspace);
  if (target === tokenFile || real === tokenFile) {
    throw new WorkspacePathError(`"${requested}" holds plangate's access token; it is off limits.`);
  }
  return target;
}

async function nearestRealPath(path: string): Promise<string> {
  let current = path;
  let rest = "";
  for (;;) {
    try {
      return resolve(await realpath(current), rest);
    } catch (error) {
      const parent = dirname(current);
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === current) throw error;
      rest = rest
        ? `${current.slice(parent.length + 1)}${sep}${rest}`
        : current.slice(parent.length + 1);
      current = parent;
    }
  }
}

/**
 * R10: where a path really leads, symbolic links resolved: the real path of its nearest
 * existing ancestor plus the rest, so `link/new.txt` is judged where it would be written.
 */
export function realPathSync(path: string): string {
  let current = path;
  let rest = "";
  for (;;) {
    try {
      return resolve(realpathSync(current), rest);
    } catch (error) {
      const parent = dirname(current);
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "ENOENT" && code !== "ENOTDIR") || parent === current)
        return resolve(current, rest);
      rest = rest
        ? `${current.slice(parent.length + 1)}${sep}${rest}`
        : current.slice(parent.length + 1);
      current = parent;
    }
  }
}

export interface WorkspaceEntry {
  /** The resolved absolute path inside the workspace. */
  path: string;
  /** How the path is named to the model: relative to the workspace. */
  shown: string;
  /** What is there now, or undefined when nothing is. */
  info: Stats | undefined;
}

/** Resolves a requested path inside the workspace (R4) and looks at what is there. */
export async function locateInWorkspace(
  workspace: string,
  requested: string,
): Promise<WorkspaceEntry> {
  const path = await resolveInWorkspace(workspace, requested);
  const info = await stat(path).catch(() => undefined);
  return { path, shown: displayPath(workspace, path), info };
}
