import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { isInside } from "./workspacePath.ts";

/** Folders no file tool looks into: dependencies, git internals, plangate's own data. */
export const IGNORED = ["**/node_modules/**", "**/.git/**", "**/.zcode/**"];

/** A relative glob pattern may not be absolute or climb out with `..` (R4). */
export function patternEscapes(pattern: string): boolean {
  return pattern.startsWith("/") || pattern.split(/[\\/]/).includes("..");
}

/** R12: glob matching backtracks; these bounds keep one file's match to milliseconds. */
const MAX_PATTERN_CHARS = 500;
const MAX_STARS_PER_SEGMENT = 2;
const MAX_GLOBSTARS = 3;

/** Why a glob is too costly to run (R12), or undefined when it is fine. */
export function patternTooCostly(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_CHARS) return `longer than ${MAX_PATTERN_CHARS} characters`;
  const segments = pattern.split("/");
  if (segments.filter((segment) => segment === "**").length > MAX_GLOBSTARS) {
    return `more than ${MAX_GLOBSTARS} "**" parts`;
  }
  const crowded = segments.some(
    (segment) => segment !== "**" && (segment.match(/\*/g)?.length ?? 0) > MAX_STARS_PER_SEGMENT,
  );
  if (crowded) return `more than ${MAX_STARS_PER_SEGMENT} "*" in one path segment`;
  if (/[@!+*?]\(/.test(pattern)) return "extended glob groups like +(…)";
  return undefined;
}

/**
 * Files under `base` matching the pattern, as absolute paths, sorted. Symbolic links are not
 * followed into directories, and a linked file is dropped when its target lies outside.
 */
export async function matchFiles(
  workspace: string,
  base: string,
  pattern: string,
  signal?: AbortSignal,
): Promise<string[]> {
  // On the first Glob or Grep, not at every start (issue 15: restart).
  const { glob } = await import("tinyglobby");
  const found = await glob(pattern, {
    cwd: base,
    dot: true,
    ignore: IGNORED,
    onlyFiles: true,
    followSymbolicLinks: false,
    expandDirectories: false,
    ...(signal ? { signal } : {}),
  });
  const inside: string[] = [];
  for (const relativePath of found.sort()) {
    const absolute = resolve(base, relativePath);
    const real = await realpath(absolute).catch(() => undefined);
    if (real !== undefined && isInside(workspace, real)) inside.push(absolute);
  }
  return inside;
}
