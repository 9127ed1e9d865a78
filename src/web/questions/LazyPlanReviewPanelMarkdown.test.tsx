// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { planPanelProps, questionRequest, reviewItem } from "./testFixtures.ts";

// The card's chunk, whose fetch can be made to fail once (a dropped connection), and the
// markdown chunk, which arrives when the test lets it.
const chunks = vi.hoisted(() => {
  let release = () => {};
  const markdown = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { failPanel: false, markdown, release: () => release() };
});
vi.mock("./PlanReviewPanel.tsx", async () => {
  if (chunks.failPanel) {
    chunks.failPanel = false;
    throw new Error("chunk fetch failed");
  }
  const { Markdown } = await import("../markdown/Markdown.tsx");
  return { PlanReviewPanel: () => <Markdown text="the *plan*" /> };
});
vi.mock("../markdown/MarkdownRenderer.tsx", async () => {
  await chunks.markdown;
  return {
    default: ({ text }: { text: string }) => <p>rendered {text}</p>,
    warmUpMarkdown: () => {},
  };
});

const props = planPanelProps(questionRequest(reviewItem));

/**
 * A page that has loaded neither chunk yet (the test setup loads the real ones up front), with
 * the renderer of the same module graph, so the card finds the translator it provides.
 */
async function freshPage() {
  vi.resetModules();
  const { renderWithI18n } = await import("./renderWithI18n.tsx");
  return { ...(await import("./LazyPlanReviewPanel.tsx")), renderWithI18n };
}

describe("the plan card's code, loaded on first use (I5)", () => {
  it("[I5] a plan card whose code is in waits for the markdown chunk too: the plan never shows as plain text first", async () => {
    const { LazyPlanReviewPanel, prefetchPlanReview, renderWithI18n } = await freshPage();
    void prefetchPlanReview();
    await new Promise((resolve) => setTimeout(resolve, 50));
    renderWithI18n(<LazyPlanReviewPanel {...props} />, "en");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/plan/)).not.toBeInTheDocument();
    chunks.release();
    expect(await screen.findByText("rendered the *plan*")).toBeInTheDocument();
  });
});
