// @vitest-environment jsdom
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { prefetchMarkdown } from "../markdown/Markdown.tsx";
import { renderShell } from "../testing/renderShell.tsx";
import { PlanDecidedCard } from "./PlanDecidedCard.tsx";

const plan = "# Plan: a long migration\n\n1. Move the tables\n2. Switch the readers";

describe("a decided plan in the transcript (W9)", () => {
  it("[W9] renders the plan only once unfolded, and keeps it when folded again", async () => {
    await prefetchMarkdown();
    renderShell(<PlanDecidedCard decided={{ plan, revision: 1, decision: { kind: "chat" } }} />);
    const card = screen.getByTestId("entry-plan-decided") as HTMLDetailsElement;
    // Folded: nothing of the plan is parsed or rendered while the next card paints.
    expect(card.querySelector("h1")).toBeNull();
    card.open = true;
    fireEvent(card, new Event("toggle"));
    expect(await screen.findByRole("heading", { name: "Plan: a long migration" })).toBeTruthy();
    card.open = false;
    fireEvent(card, new Event("toggle"));
    expect(card.querySelector("h1")).not.toBeNull();
  });
});
