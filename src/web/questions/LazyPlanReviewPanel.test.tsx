// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { PlanReviewPanelProps } from "./PlanReviewPanel.tsx";
import { planReviewOf } from "./planReviewOf.ts";
import { renderWithI18n } from "./renderWithI18n.tsx";
import { questionRequest, reviewItem } from "./testFixtures.ts";

// The card's chunk: its first fetch fails (a dropped connection), the next ones succeed.
const fetches = vi.hoisted(() => ({ count: 0 }));
vi.mock("./PlanReviewPanel.tsx", () => {
  fetches.count += 1;
  if (fetches.count === 1) throw new Error("chunk fetch failed");
  return { PlanReviewPanel: () => <p>the plan card</p> };
});

// The test setup loads the real card's code up front: this file needs a module that has not.
vi.resetModules();
const { LazyPlanReviewPanel } = await import("./LazyPlanReviewPanel.tsx");

describe("the plan card's code, loaded on first use (I5)", () => {
  it("[I5] a failed fetch of the card's code says so, and Try again fetches it again and shows the card", async () => {
    const review = planReviewOf(questionRequest(reviewItem));
    if (review === null) throw new Error("fixture is not a plan review");
    const props: PlanReviewPanelProps = {
      review,
      onAnswer: vi.fn(),
      onCancel: vi.fn(),
      onDraft: vi.fn(),
      focusComposer: vi.fn(),
    };
    renderWithI18n(<LazyPlanReviewPanel {...props} />, "en");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The plan review could not be loaded.",
    );
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("the plan card")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
