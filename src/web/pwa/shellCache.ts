/** U2: the one cache the service worker keeps; a new name drops older shells. */
export const SHELL_CACHE = "plangate-shell-v1";

/** Files of the shell besides the page itself and its hashed assets. */
const SHELL_FILES = new Set(["/manifest.webmanifest", "/icon.svg"]);

export type ShellRule = "page" | "asset" | "network";

/**
 * U2: what the service worker may keep. Only the app shell: the page, its content-hashed
 * assets, the manifest and the icon. The socket, the MCP bridge, every API route and
 * anything with a query string (the token link) always go to the network and are never kept.
 */
export function shellRule(
  request: { method: string; url: string; mode?: string },
  origin: string,
): ShellRule {
  if (request.method !== "GET") return "network";
  const url = new URL(request.url);
  if (url.origin !== origin || url.search !== "") return "network";
  if (url.pathname === "/" || url.pathname === "/index.html") return "page";
  if (request.mode === "navigate") return "network";
  if (url.pathname.startsWith("/assets/") || SHELL_FILES.has(url.pathname)) return "asset";
  return "network";
}
