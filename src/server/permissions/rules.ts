import { isAbsolute, posix, relative, resolve, sep } from "node:path";

/**
 * A project rule names a tool, optionally narrowed to paths: `Write` matches every Write call,
 * `Write(src/**)` only those whose path matches the glob, `*` any tool. Globs match the
 * workspace-relative path with `/` separators: `*` is any run of characters within one path
 * segment, `**` any run across segments (`src/**` matches everything under src), `?` one
 * character. A rule with a glob never matches a call that has no path.
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

export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === "*" && glob[index + 1] === "*") {
      const slashAfter = glob[index + 2] === "/";
      source += slashAfter ? "(?:.*/)?" : ".*";
      index += slashAfter ? 2 : 1;
    } else if (char === "*") {
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`);
}

export function ruleMatches(rule: ToolRule, toolName: string, path: string | undefined): boolean {
  if (rule.tool !== "*" && rule.tool !== toolName) return false;
  if (rule.glob === undefined) return true;
  if (path === undefined) return false;
  return globToRegExp(rule.glob).test(path);
}

/**
 * The path a call acts on, relative to the workspace with `/` separators, when its input names
 * one (`path` or `file_path`). Paths outside the workspace keep their `..`, so no inside glob
 * matches them.
 */
export function callPath(workspace: string, input: unknown): string | undefined {
  if (input === null || typeof input !== "object") return undefined;
  const record = input as Record<string, unknown>;
  const raw = typeof record.path === "string" ? record.path : record.file_path;
  if (typeof raw !== "string" || raw.trim() === "") return undefined;
  const rel = relative(workspace, resolve(workspace, raw));
  if (isAbsolute(rel)) return rel;
  return posix.normalize(rel.split(sep).join("/")) || ".";
}
