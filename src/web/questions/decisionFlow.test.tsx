// @vitest-environment jsdom
import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../../protocol/index.ts";
import { ComposerArea } from "../composer/ComposerArea.tsx";
import {
  created,
  longPlan,
  planReviewRequest,
  questionRequest,
  snapshotFrame,
  stored,
} from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { watchTeardown } from "../testing/teardownProbe.ts";

/** ComposerArea keeps a plan card this long to leave in steps. */
const LONG_PLAN = 20_000;

const review = planReviewRequest("r1", "## Steps\n\n1. migrate");

const writeNotes = {
  kind: "permission" as const,
  interactionId: "p1",
  sessionId: "s1",
  toolName: "Write",
  toolCallId: "call-p1",
  summary: "notes.md",
  input: { path: "notes.md", content: "# Notes" },
  createdAt: 2,
};

function renderArea(entries: SessionEntry[]) {
  const frames = [
    snapshotFrame(
      "s1",
      [created, ...entries].map((entry, i) => stored(i + 1, entry)),
    ),
  ];
  const view = renderShell(<ComposerArea sessionId="s1" />, { frames });
  const input = screen.getByRole("textbox", { name: "Message to the agent" });
  let seq = entries.length + 1;
  const receive = (entry: SessionEntry) =>
    act(() => view.client.receive({ type: "event", sessionId: "s1", seq: ++seq, at: seq, entry }));
  return { ...view, input, receive };
}

describe("decision surfaces in the composer area", () => {
  it("[W11] after Approve focus moves to the message box, never the page body", async () => {
    const user = userEvent.setup();
    const { input } = renderArea([{ kind: "interaction.requested", request: review }]);
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(input).toHaveFocus();
  });

  it("[W11] the next card takes focus from the empty message box after a decision", async () => {
    const user = userEvent.setup();
    const { receive } = renderArea([{ kind: "interaction.requested", request: review }]);
    await user.click(screen.getByRole("button", { name: "Approve" }));
    receive({
      kind: "interaction.resolved",
      interactionId: "r1",
      outcome: { type: "answered", answers: { x: { labels: ["Approve"] } }, auto: false },
    });
    receive({
      kind: "interaction.requested",
      request: writeNotes,
    });
    await waitFor(() => expect(screen.getByRole("region", { name: "Allow Write?" })).toHaveFocus());
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(screen.getByRole("textbox", { name: "Message to the agent" })).toHaveFocus();
  });

  it("[W11] Stop hands focus to the message box instead of dropping it on the page body", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderArea([{ kind: "turn.started" }]);
    await user.click(screen.getByRole("button", { name: "Stop" }));
    expect(sent).toContainEqual({ type: "turn.cancel", sessionId: "s1" });
    expect(input).toHaveFocus();
  });

  it("[W12] says a question was answered elsewhere before showing the next one in the queue", async () => {
    const user = userEvent.setup();
    const { receive } = renderArea([
      { kind: "interaction.requested", request: questionRequest("q1") },
      { kind: "interaction.requested", request: questionRequest("q2") },
    ]);
    expect(screen.getByText("Which database for q1?")).toBeInTheDocument();
    receive({ kind: "interaction.resolved", interactionId: "q1", outcome: { type: "cancelled" } });
    expect(screen.getByRole("status")).toHaveTextContent("answered in another tab");
    expect(screen.queryByText("Which database for q2?")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Show the next question" }));
    expect(screen.getByText("Which database for q2?")).toBeInTheDocument();
  });

  it("[W11] a card settled elsewhere hands focus to the message box, and to the next-question button once a next question arrives", async () => {
    const { input, receive } = renderArea([
      { kind: "interaction.requested", request: questionRequest("q1") },
    ]);
    screen.getByRole("radio", { name: /Postgres/ }).focus();
    receive({ kind: "interaction.resolved", interactionId: "q1", outcome: { type: "cancelled" } });
    expect(screen.getByRole("status")).toHaveTextContent("Answered elsewhere");
    expect(input).toHaveFocus();
    receive({ kind: "interaction.requested", request: questionRequest("q2") });
    expect(screen.getByRole("button", { name: "Show the next question" })).toHaveFocus();
  });

  it("[W12] a question answered here moves straight on to the next one", async () => {
    const user = userEvent.setup();
    const { receive } = renderArea([
      { kind: "interaction.requested", request: questionRequest("q1") },
      { kind: "interaction.requested", request: questionRequest("q2") },
    ]);
    await user.click(screen.getByRole("radio", { name: /Postgres/ }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    receive({
      kind: "interaction.resolved",
      interactionId: "q1",
      outcome: { type: "answered", answers: {}, auto: false },
    });
    expect(screen.getByText("Which database for q2?")).toBeInTheDocument();
    expect(screen.queryByText(/answered in another tab/)).toBeNull();
  });

  it("[I7] after a refusal with feedback the composer area says what the agent does next", () => {
    renderArea([
      { kind: "interaction.requested", request: review },
      {
        kind: "interaction.resolved",
        interactionId: "r1",
        outcome: {
          type: "answered",
          answers: { [review.questions[0]!.question]: { labels: ["Refuse"], other: "Smaller" } },
          auto: false,
        },
      },
      { kind: "user.message", text: "Smaller" },
    ]);
    expect(screen.getByTestId("next-step")).toHaveTextContent(
      "Plan refused with your feedback. The agent stays in plan mode and revises it.",
    );
  });

  it("[I7] after an approval the line says the agent carries the plan out, until its turn has ended", () => {
    const approved: SessionEntry[] = [
      { kind: "turn.started" },
      { kind: "interaction.requested", request: review },
      {
        kind: "interaction.resolved",
        interactionId: "r1",
        outcome: {
          type: "answered",
          answers: { [review.questions[0]!.question]: { labels: ["Approve"] } },
          auto: false,
        },
      },
    ];
    const carrying = renderArea(approved);
    expect(screen.getByTestId("next-step")).toHaveTextContent("Plan approved.");
    carrying.unmount();
    renderArea([...approved, { kind: "turn.ended", reason: "completed" }]);
    expect(screen.queryByTestId("next-step")).toBeNull();
  });

  it("[I7] the next-step line goes once the user writes again", () => {
    renderArea([
      { kind: "interaction.requested", request: review },
      { kind: "interaction.resolved", interactionId: "r1", outcome: { type: "cancelled" } },
      { kind: "user.message", text: "Why step 2?" },
    ]);
    expect(screen.queryByTestId("next-step")).toBeNull();
  });

  it("[W1] a long plan card that leaves is hidden at once and taken down over several tasks, then unmounted", async () => {
    const sections = 120;
    const plan = longPlan(sections);
    expect(plan.length).toBeGreaterThan(LONG_PLAN);
    const { container, receive } = renderArea([
      { kind: "interaction.requested", request: planReviewRequest("r1", plan) },
    ]);
    const blocks = () => container.querySelectorAll(".md-block").length;
    await waitFor(() => expect(blocks()).toBe(sections));
    screen.getByRole("button", { name: "Approve" }).focus();

    const removed = watchTeardown(container);
    receive({
      kind: "interaction.resolved",
      interactionId: "r1",
      outcome: { type: "aborted", reason: "the agent withdrew it" },
    });

    // Hidden, out of the accessibility tree and without focus, but not yet removed.
    const leaving = container.querySelector("[data-leaving='r1']");
    expect(leaving).not.toBeNull();
    expect(leaving).toHaveAttribute("hidden");
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    expect(leaving?.contains(document.activeElement)).toBe(false);
    expect(blocks()).toBeGreaterThan(0);
    // A card arriving meanwhile takes focus as usual (W11).
    receive({
      kind: "interaction.requested",
      request: writeNotes,
    });
    await waitFor(() => expect(screen.getByRole("region", { name: "Allow Write?" })).toHaveFocus());

    await waitFor(() => expect(container.querySelector("[data-leaving]")).toBeNull());
    removed.stop();
    expect(blocks()).toBe(0);
    // In steps: no one step removed most of the plan.
    expect(removed.perTask.length).toBeGreaterThan(2);
    expect(Math.max(...removed.perTask)).toBeLessThan(sections / 2);
  });

  it("[W12] a long plan settled in another tab gives way to the notice at once and leaves in steps", async () => {
    const plan = longPlan(120);
    const { container, receive } = renderArea([
      { kind: "interaction.requested", request: planReviewRequest("r1", plan) },
      { kind: "interaction.requested", request: questionRequest("q2") },
    ]);
    const blocks = () => container.querySelectorAll(".md-block").length;
    await waitFor(() => expect(blocks()).toBe(120));
    const removed = watchTeardown(container);

    receive({ kind: "interaction.resolved", interactionId: "r1", outcome: { type: "cancelled" } });
    expect(container.querySelector("[data-leaving='r1']")).toHaveAttribute("hidden");
    await waitFor(() =>
      expect(screen.getByRole("status")).toHaveTextContent("answered in another tab"),
    );
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    expect(screen.queryByText("Which database for q2?")).toBeNull();

    await waitFor(() => expect(container.querySelector("[data-leaving]")).toBeNull());
    expect(blocks()).toBe(0);
    expect(removed.perTask.length).toBeGreaterThan(2);
    expect(Math.max(...removed.perTask)).toBeLessThan(120 / 2);
    removed.stop();
    expect(screen.getByRole("status")).toHaveTextContent("answered in another tab");
  });

  it("[W1] a short plan card leaves at once, as before", () => {
    const { container, receive } = renderArea([{ kind: "interaction.requested", request: review }]);
    receive({
      kind: "interaction.resolved",
      interactionId: "r1",
      outcome: { type: "aborted", reason: "the agent withdrew it" },
    });
    expect(container.querySelector(".composer-card")).toBeNull();
    expect(screen.queryByText("Review this implementation plan")).toBeNull();
  });
});
