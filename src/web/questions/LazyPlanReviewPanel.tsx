import { type ComponentType, lazy, type ReactNode, Suspense } from "react";
import { useTranslation } from "react-i18next";
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

// A plan card needs the markdown chunk too: both are fetched at once, and the card shows when
// both are in, so a first plan card appears once, rendered, not as plain text first. A failed
// markdown fetch leaves the plan as plain text (Markdown's own fallback), never no card.
let mounting: Promise<{ default: Panel }> | null = null;
function startMounting(): Promise<{ default: Panel }> {
  mounting ??= Promise.all([loadPanel(), prefetchMarkdown().catch(() => {})]).then(
    ([panel]) => panel,
    (error: unknown) => {
      mounting = null;
      throw error;
    },
  );
  return mounting;
}
const LazyPanel = lazy(startMounting);

/**
 * The card's strings (the plan namespace, issue 15) are a chunk of their own too: this starts
 * the code and markdown fetches, then waits for the strings, so all three load at once.
 */
function PlanCopy({ children }: { children: ReactNode }) {
  startMounting().catch(() => {}); // LazyPanel reports a failure
  useTranslation("plan", { useSuspense: true });
  return children;
}

/**
 * Fetches the plan card's code ahead of use; settles after a plan card that is mounting now has
 * its code and markdown, so what is fetched after it does not compete with that card.
 */
export function prefetchPlanReview(): Promise<unknown> {
  return mounting ?? loadPanel();
}

/**
 * I5's card, loaded on first use. Until its code, its strings and the markdown chunk are in
 * (only when a plan is the first card the page shows) nothing is drawn rather than a "Loading"
 * placeholder.
 */
export function LazyPlanReviewPanel(props: PlanReviewPanelProps) {
  const { i18n } = useTranslation();
  const Loaded = loadedPanel;
  if (Loaded && i18n.hasLoadedNamespace("plan")) return <Loaded {...props} />;
  return (
    <Suspense fallback={null}>
      <PlanCopy>
        <LazyPanel {...props} />
      </PlanCopy>
    </Suspense>
  );
}
