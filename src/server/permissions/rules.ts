import { isAbsolute, posix, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import { realPathSync } from "../tools/workspacePath.ts";

/**
 * A project rule names a tool, optionally narrowed to paths: `Write` matches every Write call,
 * `Write(src/**)` only those whose path matches the glob, `*` any tool. Globs match the
 * workspace-relative path with `/` separators, through picomatch: `*` is any run of characters
 * within one path segment, `**` any run across segments (`src/**` matches everything under
 * src), `?` one character, `{a,b}` either, `[ab]` a class. A rule with a glob never matches a
 * call that has no path, nor a path outside the workspace (`../…`).
 */
export interface ToolRule {
  tool: string;
  glob?: string;
}

const RULE = /^\s*([^\s()]+)\s*(?:\(\s*(.*?)\s*\))?\s*$/;

export function parseRule(text: string): ToolRule | undefined {
  const match = RULE.exec(text);
  if (!match?.[1]) return undefined;
  const glob = match[2];
  return glob === undefined || glob === "" ? { tool: match[1] } : { tool: match[1], glob };
}

export function formatRule(rule: ToolRule): string {
  return rule.glob === undefined ? rule.tool : `${rule.tool}(${rule.glob})`;
}

/** Dot files too: a rule over `**` covers `.zcode/` and `.git/` like any other folder. */
const GLOB_OPTIONS: picomatch.PicomatchOptions = { dot: true };
const compiledGlobs = new Map<string, picomatch.Matcher>();

export function ruleMatches(rule: ToolRule, toolName: string, path: string | undefined): boolean {
  if (rule.tool !== "*" && rule.tool !== toolName) return false;
  if (rule.glob === undefined) return true;
  if (path === undefined) return false;
  let matches = compiledGlobs.get(rule.glob);
  if (!matches) {
    matches = picomatch(rule.glob, GLOB_OPTIONS);
    compiledGlobs.set(rule.glob, matches);
  }
  return matches(path);
}

/**
 * The path a call acts on, relative to the workspace with `/` separators, when its input names
 * one (`path` or `file_path`). Paths outside the workspace keep their `..`, so no inside glob
 * matches them.
 */
export function callPath(workspace: string, input: unknown): string | undefined {
  const raw = rawPathOf(input);
  return raw === undefined ? undefined : workspaceRelative(workspace, resolve(workspace, raw));
}

/**
 * R10: the path a call acts on as written and where it really leads (symbolic links
 * resolved); one entry when they are the same.
 */
export function callPaths(workspace: string, input: unknown): string[] | undefined {
  const raw = rawPathOf(input);
  return raw === undefined ? undefined : pathsOf(workspace, resolve(workspace, raw));
}

/** The workspace-relative spellings of an absolute path: as given, and its real path. */
export function pathsOf(workspace: string, absolutePath: string): string[] {
  const written = workspaceRelative(workspace, absolutePath);
  const real = workspaceRelative(workspace, realPathSync(absolutePath));
  return real === written ? [written] : [written, real];
}

function rawPathOf(input: unknown): string | undefined {
  if (input === null || typeof input !== "object") return undefined;
  const record = input as Record<string, unknown>;
  const raw = typeof record.path === "string" ? record.path : record.file_path;
  return typeof raw !== "string" || raw.trim() === "" ? undefined : raw;
}

function workspaceRelative(workspace: string, absolutePath: string): string {
  const rel = relative(workspace, absolutePath);
  if (isAbsolute(rel)) return rel;
  return posix.normalize(rel.split(sep).join("/")) || ".";
}
