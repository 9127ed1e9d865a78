import type { Page } from "../store/types.ts";

export type Route =
  | { page: "settings" }
  | { page: "inbox" }
  | { page: "session"; sessionId: string | null };

/** `#/s/<id>` reopens a session after a reload; `#/settings` is the settings page. */
export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/, "");
  if (path === "/settings") return { page: "settings" };
  if (path === "/inbox" || path.startsWith("/inbox/")) return { page: "inbox" };
  const match = /^\/s\/(.+)$/.exec(path);
  if (match?.[1]) {
    try {
      return { page: "session", sessionId: decodeURIComponent(match[1]) };
    } catch {
      return { page: "session", sessionId: null };
    }
  }
  return { page: "session", sessionId: null };
}

export function formatHash(page: Page, sessionId: string | null): string {
  if (page === "settings") return "#/settings";
  if (page === "inbox") return "#/inbox";
  return sessionId ? `#/s/${encodeURIComponent(sessionId)}` : "#/";
}
