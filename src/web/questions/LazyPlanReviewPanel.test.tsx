// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { planPanelProps, questionRequest, reviewItem } from "./testFixtures.ts";

// The card's chunk, whose first fetch fails (a dropped connection); the markdown chunk.
const chunks = vi.hoisted(() => {
  let release = () => {};
  const markdown = new Promise<void>((resolve) => {
    release = resolve;
  });
  release();
  return { failPanel: true, markdown, release: () => release() };
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
  it("[I5] a failed fetch of the card's code says so, and Try again fetches it again and shows the card", async () => {
    const { LazyPlanReviewPanel, renderWithI18n } = await freshPage();
    renderWithI18n(<LazyPlanReviewPanel {...props} />, "en");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The plan review could not be loaded.",
    );
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("rendered the *plan*")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
