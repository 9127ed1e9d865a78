/**
 * R9: the folders that hold the agent's own rules and the repository's machinery. A write
 * into them could lift every other rule (`.zcode/permissions.json`) or run code outside any
 * tool (`.git/hooks`, `core.fsmonitor`), so it always asks the person, in every mode.
 * Segments compare without case: on a case-insensitive disk `.GIT` is `.git`.
 */
const PROTECTED_FOLDERS = new Set([".zcode", ".git"]);

/** Inside `.zcode/`, what the agent may read: its rules and its saved plans. */
const READABLE_IN_ZCODE = [/^permissions\.json$/i, /^plans(\/|$)/i];

const segmentsOf = (relativePath: string) => relativePath.split("/").filter((s) => s !== "");

/** `relativePath` is workspace-relative with `/` separators, as `callPath` gives it. */
export function isProtectedPath(relativePath: string): boolean {
  return segmentsOf(relativePath).some((segment) => PROTECTED_FOLDERS.has(segment.toLowerCase()));
}

/**
 * R9: plangate's own data: the model config with its keys, the session database, tokens and
 * whatever else it keeps in `.zcode/`, except the rules and the plans. No tool returns them.
 */
export function isPlangateSecretPath(relativePath: string): boolean {
  const segments = segmentsOf(relativePath);
  const at = segments.findIndex((segment) => segment.toLowerCase() === ".zcode");
  if (at === -1) return false;
  const inside = segments.slice(at + 1).join("/");
  if (inside === "") return false;
  return !READABLE_IN_ZCODE.some((pattern) => pattern.test(inside));
}
