import { prefetchMarkdown } from "../markdown/Markdown.tsx";
import { lazyCard } from "./lazyCard.tsx";
import type { PlanReviewPanelProps } from "./PlanReviewPanel.tsx";

// I5's card (comments, approve options, line diff, edit mode) loads on first use or once the
// first screen is up; a plan card needs the markdown chunk too, so both are fetched at once.
const plan = lazyCard<PlanReviewPanelProps>(
  () => import("./PlanReviewPanel.tsx").then((module) => module.PlanReviewPanel),
  prefetchMarkdown,
);

export const LazyPlanReviewPanel = plan.Card;
export const prefetchPlanReview = plan.prefetch;
