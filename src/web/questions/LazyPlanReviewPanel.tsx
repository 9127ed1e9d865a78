import { type ComponentType, lazy, Suspense } from "react";
import { prefetchMarkdown } from "../markdown/Markdown.tsx";
import type { PlanReviewPanelProps } from "./PlanReviewPanel.tsx";

type Panel = ComponentType<PlanReviewPanelProps>;

// Issue 15: the plan-review card (comments, approve options, line diff, edit mode) is its own
// chunk, so a page whose first card is another kind never fetches it; main.tsx fetches it once
// the first screen is painted. Once it is in, render it directly: a lazy() boundary would
// still suspend once per mount.
let loadedPanel: Panel | null = null;
let loading: Promise<{ default: Panel }> | null = null;

function loadPanel(): Promise<{ default: Panel }> {
  loading ??= import("./PlanReviewPanel.tsx").then(
    (module) => {
      loadedPanel = module.PlanReviewPanel;
      return { default: module.PlanReviewPanel };
    },
    (error: unknown) => {
      loading = null; // a failed fetch is tried again by the next caller
      throw error;
    },
  );
  return loading;
}

const LazyPanel = lazy(() => {
  // A plan card needs the markdown chunk too: fetch both at once, not one after the other.
  prefetchMarkdown().catch(() => {});
  return loadPanel();
});

/** Fetches the plan card's code ahead of use. */
export function prefetchPlanReview(): Promise<unknown> {
  return loadPanel();
}

/**
 * I5's card, loaded on first use. Until its code is in (only when a plan is the first card the
 * page shows) nothing is drawn rather than a "Loading" placeholder.
 */
export function LazyPlanReviewPanel(props: PlanReviewPanelProps) {
  const Loaded = loadedPanel;
  if (Loaded) return <Loaded {...props} />;
  return (
    <Suspense fallback={null}>
      <LazyPanel {...props} />
    </Suspense>
  );
}
