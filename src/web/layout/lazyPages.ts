import { lazy } from "react";

// Pages that no first card needs load on first use (issue 15); preloadPages fetches them once
// the first screen is up, so opening one later rarely waits.
const loadSettings = () => import("../settings/SettingsPage.tsx");
const loadInbox = () => import("../inbox/InboxPage.tsx");

export const SettingsPage = lazy(() =>
  loadSettings().then((module) => ({ default: module.SettingsPage })),
);
export const InboxPage = lazy(() => loadInbox().then((module) => ({ default: module.InboxPage })));

/** Fetches the lazy pages in idle time; a failed fetch is retried when the page is opened. */
export function preloadPages(): void {
  const fetchAll = () => {
    loadSettings().catch(() => {});
    loadInbox().catch(() => {});
  };
  if ("requestIdleCallback" in window) window.requestIdleCallback(fetchAll, { timeout: 1000 });
  else setTimeout(fetchAll, 1000);
}
