// Component tests opt into jsdom with a `// @vitest-environment jsdom` docblock; matchers load everywhere.
import "@testing-library/jest-dom/vitest";

// The markdown parser is a lazy chunk in the app; component tests load it up front so renders
// are synchronous. Server tests never render, so they skip it.
if (typeof document !== "undefined") {
  // The page's effect timing (main.tsx loads it too).
  await import("./web/runtime/effectsAfterTask.ts");
  const { prefetchMarkdown } = await import("./web/markdown/Markdown.tsx");
  await prefetchMarkdown();
  // Likewise the plan-review card's chunk (issue 15).
  const { prefetchPlanReview } = await import("./web/questions/LazyPlanReviewPanel.tsx");
  await prefetchPlanReview();
}
