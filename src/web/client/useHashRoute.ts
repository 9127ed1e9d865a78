import { useEffect } from "react";
import { appStore, useAppStore } from "../store/store.ts";
import { formatHash, parseHash } from "./route.ts";
import type { WebClient } from "./WebClient.ts";

/** Reads the route before the first render, so a reload reopens the same session. */
export function applyInitialRoute(hash: string): void {
  const route = parseHash(hash);
  const state = appStore.getState();
  if (route.page === "settings" || route.page === "inbox") state.showPage(route.page);
  else state.selectSession(route.sessionId);
}

/** Keeps `#/s/<id>` / `#/settings` and the store in step, both ways (back button included). */
export function useHashRoute(client: WebClient): void {
  const page = useAppStore((s) => s.page);
  const selected = useAppStore((s) => s.selectedSessionId);

  useEffect(() => {
    const follow = () => {
      const route = parseHash(window.location.hash);
      const state = appStore.getState();
      if (route.page === "settings" || route.page === "inbox") state.showPage(route.page);
      else if (route.sessionId === null) state.selectSession(null);
      else if (route.sessionId !== state.selectedSessionId) client.openSession(route.sessionId);
      else state.showPage("session");
    };
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, [client]);

  useEffect(() => {
    const hash = formatHash(page, selected);
    const current = window.location.hash;
    if (current === hash || (current === "" && hash === "#/")) return;
    window.location.hash = hash;
  }, [page, selected]);
}
