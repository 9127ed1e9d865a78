import { createElement } from "react";
import { lazyComponent } from "./lazyComponent.tsx";
import { PageLoading } from "./PageLoading.tsx";

// Pages that no first card needs load on first use (issue 15); afterFirstScreenWork fetches them
// once the first screen is up, so opening one later rarely waits.
const loadSettings = () => import("../settings/SettingsPage.tsx");
const loadInbox = () => import("../inbox/InboxPage.tsx");

const settingsPage = lazyComponent(
  () => loadSettings().then((module) => module.SettingsPage),
  createElement(PageLoading),
);
const inboxPage = lazyComponent(
  () => loadInbox().then((module) => module.InboxPage),
  createElement(PageLoading),
);
export const SettingsPage = settingsPage.Component;
export const InboxPage = inboxPage.Component;
export const prefetchSettingsPage = settingsPage.prefetch;
export const prefetchInboxPage = inboxPage.prefetch;
