import { type ComponentType, useEffect, useState } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { markdownLoaded, prefetchMarkdown } from "../markdown/Markdown.tsx";
import type { PlanReviewPanelProps } from "./PlanReviewPanel.tsx";

type Panel = ComponentType<PlanReviewPanelProps>;

// Issue 15: the plan-review card (comments, approve options, line diff, edit mode) is its own
// chunk, so a page whose first card is another kind never fetches it; main.tsx fetches it once
// the first screen is painted. Once it is in, render it directly. Not React.lazy: a lazy()
// keeps a failed fetch as its result for good, so the card could never load after one.
let loadedPanel: Panel | null = null;
let loading: Promise<Panel> | null = null;

function loadPanel(): Promise<Panel> {
  loading ??= import("./PlanReviewPanel.tsx").then(
    (module) => {
      loadedPanel = module.PlanReviewPanel;
      return module.PlanReviewPanel;
    },
    (error: unknown) => {
      loading = null; // a failed fetch is not kept: the next caller fetches again
      throw error;
    },
  );
  return loading;
}

// A plan card needs the markdown chunk too: both are fetched at once, and the card shows when
// both are in, so a first plan card appears once, rendered, not as plain text first. A failed
// markdown fetch leaves the plan as plain text (Markdown's own fallback), never no card.
let mounting: Promise<Panel> | null = null;

function loadForCard(): Promise<Panel> {
  mounting ??= Promise.all([loadPanel(), prefetchMarkdown().catch(() => {})]).then(
    ([panel]) => panel,
    (error: unknown) => {
      mounting = null;
      throw error;
    },
  );
  return mounting;
}

/**
 * Fetches the plan card's code and the markdown chunk ahead of use; settles after a plan card
 * that is mounting now has them, so what is fetched after it does not compete with that card.
 */
export function prefetchPlanReview(): Promise<unknown> {
  return loadForCard();
}

/**
 * I5's card, loaded on first use. Until its code, its strings (the plan namespace) and the
 * markdown chunk are in (only when a plan is the first card the page shows) nothing is drawn
 * rather than a "Loading" placeholder. If the fetch fails the card says so with a button that
 * fetches again; a card mounted later (the next plan) fetches again too.
 */
export function LazyPlanReviewPanel(props: PlanReviewPanelProps) {
  const { t, i18n } = useTranslation("question");
  const [panel, setPanel] = useState<{ Loaded: Panel } | null>(null);
  const [failed, setFailed] = useState(false);
  // The panel alone is not enough: without the markdown chunk the plan would be laid out as plain
  // text first (a 300 KB plan: a 40–70 ms layout, then all of it replaced).
  const Loaded = i18n.hasLoadedNamespace("plan")
    ? (panel?.Loaded ?? (markdownLoaded() ? loadedPanel : null))
    : null;
  useEffect(() => {
    if (Loaded !== null || failed) return;
    let live = true;
    // A failed load of the strings still settles: the card then shows their keys, not nothing.
    Promise.all([loadForCard(), i18n.loadNamespaces("plan")]).then(
      ([loaded]) => live && setPanel({ Loaded: loaded }),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [Loaded, failed, i18n]);
  if (Loaded !== null) return <Loaded {...props} />;
  if (!failed) return null;
  return (
    <div className="qcard-error" role="alert">
      {t("planReview.loadFailed")}{" "}
      <button type="button" className="qbtn qbtn--small" onClick={() => setFailed(false)}>
        {t("planReview.loadRetry")}
      </button>
    </div>
  );
}
