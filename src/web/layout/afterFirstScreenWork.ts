import { prefetchSessionCompletion } from "../composer/sessionCompletionMenu.tsx";
import { PAGE_NAMESPACES } from "../i18n/resources.ts";
import type { Translator } from "../i18n/translator.ts";
import { registerServiceWorker } from "../pwa/registerServiceWorker.ts";
import { prefetchReviewPage } from "../questions/GenericQuestionFlow.tsx";
import { prefetchPlanReview } from "../questions/LazyPlanReviewPanel.tsx";
import { prefetchInboxPage, prefetchSettingsPage } from "./lazyPages.ts";
import { warmFonts } from "./warmFonts.ts";

/**
 * What main.tsx starts once the first screen is painted. Its own chunk: nothing before the first
 * card runs it (issue 15). Fetches the lazy pages, the plan-review card's code with the markdown
 * chunk, and the parts a user reaches right after (W10's review page, M4's session list), so a
 * later plan card or page finds its code in place; a failed fetch is retried on first use.
 */
export function afterFirstScreenWork(i18nReady: Promise<Translator>): void {
  // The pages wait for the plan card's code: a first plan card may be waiting for it.
  prefetchPlanReview()
    .catch(() => {})
    .finally(() => {
      prefetchSettingsPage().catch(() => {});
      prefetchInboxPage().catch(() => {});
      prefetchReviewPage().catch(() => {});
      prefetchSessionCompletion().catch(() => {});
    });
  warmFonts();
  // The pages' copy too, so opening one right away shows it without a wait.
  void i18nReady.then((instance) => instance.loadNamespaces([...PAGE_NAMESPACES]));
  // U2: installing the worker caches the app shell: it waits for the first screen too.
  if (import.meta.env.PROD) registerServiceWorker();
}
