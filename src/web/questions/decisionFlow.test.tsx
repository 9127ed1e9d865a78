// @vitest-environment jsdom
import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../../protocol/index.ts";
import { ComposerArea } from "../composer/ComposerArea.tsx";
import { created, questionRequest, snapshotFrame, stored } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";

/** ComposerArea keeps a plan card this long to leave in steps. */
const LONG_PLAN = 20_000;

const review = {
  kind: "question" as const,
  interactionId: "r1",
  sessionId: "s1",
  toolName: "ExitPlanMode",
  toolCallId: "call-r1",
  createdAt: 1,
  questions: [
    {
      question: "Review this implementation plan",
      header: "Plan",
      multiSelect: false,
      detail: "## Steps\n\n1. migrate",
      intent: { kind: "plan-review" as const, approve: "Approve" },
      options: [
        { label: "Approve", description: "Start editing" },
        { label: "Refuse", description: "Stay in plan mode" },
      ],
    },
  ],
};

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
    const plan = Array.from(
      { length: sections },
      (_, i) =>
        `## Step ${i}\n\nChange \`src/part${i}.ts\` so that the cache is read once per call and the stale entries are dropped before the next read starts; then check the callers that still read the catalog directly and move them over one at a time.`,
    ).join("\n\n");
    expect(plan.length).toBeGreaterThan(LONG_PLAN);
    const longReview = {
      ...review,
      questions: [{ ...review.questions[0]!, detail: plan }],
    };
    const { container, receive } = renderArea([
      { kind: "interaction.requested", request: longReview },
    ]);
    const blocks = () => container.querySelectorAll(".md-block").length;
    await waitFor(() => expect(blocks()).toBe(sections));
    screen.getByRole("button", { name: "Approve" }).focus();

    const removedPerCallback: number[] = [];
    const observer = new MutationObserver((records) => {
      let removed = 0;
      for (const record of records) {
        for (const node of record.removedNodes) {
          if (node instanceof Element && node.classList.contains("md-block")) removed += 1;
        }
      }
      if (removed > 0) removedPerCallback.push(removed);
    });
    observer.observe(container, { childList: true, subtree: true });
    receive({
      kind: "interaction.resolved",
      interactionId: "r1",
      outcome: { type: "aborted", reason: "the agent withdrew it" },
    });

    // Hidden, out of the accessibility tree and without focus, but not yet removed.
    const leaving = container.querySelector("[data-leaving-card='r1']");
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

    await waitFor(() => expect(container.querySelector("[data-leaving-card]")).toBeNull());
    observer.disconnect();
    expect(blocks()).toBe(0);
    // In steps: no one step removed most of the plan.
    expect(removedPerCallback.length).toBeGreaterThan(2);
    expect(Math.max(...removedPerCallback)).toBeLessThan(sections / 2);
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
