import { prefetchSessionCompletion } from "../composer/sessionCompletionMenu.tsx";
import { PAGE_NAMESPACES } from "../i18n/resources.ts";
import type { Translator } from "../i18n/translator.ts";
import { registerServiceWorker } from "../pwa/registerServiceWorker.ts";
import { prefetchReviewPage } from "../questions/GenericQuestionFlow.tsx";
import { prefetchInboxPage, prefetchSettingsPage } from "./lazyPages.ts";
import { warmFonts } from "./warmFonts.ts";
import { oneAtATimeWhenIdle } from "./whenIdle.ts";

/** A page's code comes within this even on a page that is never idle. */
const PAGE_IDLE_TIMEOUT_MS = 3000;

/**
 * What main.tsx starts once the first screen is painted. Its own chunk: nothing before the first
 * card runs it (issue 15). Fetches the lazy pages and the parts a user reaches right after
 * (W10's review page, M4's session list), so a page opened later finds its code in place; a
 * failed fetch is retried on first use.
 */
export function afterFirstScreenWork(i18nReady: Promise<Translator>): void {
  // The pages one by one in idle time, not all beside a plan card being drawn (main.tsx has
  // started the plan card's code already).
  oneAtATimeWhenIdle(
    [prefetchSettingsPage, prefetchInboxPage, prefetchReviewPage, prefetchSessionCompletion],
    PAGE_IDLE_TIMEOUT_MS,
  );
  warmFonts();
  // The pages' copy too, so opening one right away shows it without a wait.
  void i18nReady.then((instance) => instance.loadNamespaces([...PAGE_NAMESPACES]));
  // U2: installing the worker caches the app shell: it waits for the first screen too.
  if (import.meta.env.PROD) registerServiceWorker();
}
