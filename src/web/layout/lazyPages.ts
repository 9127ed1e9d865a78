import { createElement } from "react";
import { prefetchSessionCompletion } from "../composer/sessionCompletionMenu.tsx";
import { prefetchReviewPage } from "../questions/GenericQuestionFlow.tsx";
import { prefetchPlanReview } from "../questions/LazyPlanReviewPanel.tsx";
import { lazyComponent } from "./lazyComponent.tsx";
import { PageLoading } from "./PageLoading.tsx";

// Pages that no first card needs load on first use (issue 15); preloadPages fetches them once
// the first screen is up, so opening one later rarely waits.
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

/**
 * Fetches the lazy pages, the plan-review card's code with the markdown chunk, and the parts a
 * user reaches right after (W10's review page, M4's session list); main.tsx calls it once the
 * first screen is painted, so a later plan card finds its code in place. A failed fetch is
 * retried when the page or card is opened.
 */
export function preloadPages(): void {
  // The pages wait for the plan card's code: a first plan card may be waiting for it.
  prefetchPlanReview()
    .catch(() => {})
    .finally(() => {
      settingsPage.prefetch().catch(() => {});
      inboxPage.prefetch().catch(() => {});
      prefetchReviewPage().catch(() => {});
      prefetchSessionCompletion().catch(() => {});
    });
}
