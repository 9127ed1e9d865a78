// @vitest-environment jsdom
import { act, fireEvent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionEntry } from "../../protocol/index.ts";
import {
  created,
  questionRequest,
  snapshotFrame,
  stored,
  welcomeFrame,
} from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { ComposerArea } from "./ComposerArea.tsx";
import { COMPOSER_DRAFT_DEBOUNCE_MS } from "./useComposerDraft.ts";

afterEach(() => {
  vi.useRealTimers();
});

function renderComposer(entries: SessionEntry[] = [], online = true, recordComposerDrafts = false) {
  const frames = [
    snapshotFrame(
      "s1",
      [created, ...entries].map((entry, i) => stored(i + 1, entry)),
    ),
  ];
  const view = renderShell(<ComposerArea sessionId="s1" />, {
    frames,
    online,
    recordComposerDrafts,
  });
  return { ...view, input: screen.getByRole("textbox", { name: "Message to the agent" }) };
}

describe("Composer", () => {
  it("[W1] sends the prompt on Enter and clears the box", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer();
    await user.type(input, "Add a cache{Enter}");
    expect(sent).toEqual([{ type: "prompt", sessionId: "s1", text: "Add a cache" }]);
    expect(input).toHaveValue("");
  });

  it("[W1] starts a new line on Shift+Enter without sending", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer();
    await user.type(input, "one{Shift>}{Enter}{/Shift}two");
    expect(sent).toEqual([]);
    expect(input).toHaveValue("one\ntwo");
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(sent).toEqual([{ type: "prompt", sessionId: "s1", text: "one\ntwo" }]);
  });

  it("[P2] /mode yolo sends mode.set", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer();
    await user.type(input, "/mode yolo{Enter}");
    expect(sent).toEqual([{ type: "mode.set", sessionId: "s1", mode: "yolo" }]);
  });

  it("explains an unknown command and keeps the text", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer();
    await user.type(input, "/frobnicate{Enter}");
    expect(sent).toEqual([]);
    expect(screen.getByRole("alert")).toHaveTextContent("There is no /frobnicate command");
    expect(input).toHaveValue("/frobnicate");
  });

  it("[W7] holds a message sent while disconnected, shows it waiting, and sends it once on reconnect", async () => {
    const user = userEvent.setup();
    const { input, sent, client, link } = renderComposer([], false);
    await user.type(input, "hello{Enter}");
    expect(sent).toEqual([]);
    expect(input).toHaveValue("");
    expect(screen.getByTestId("held-messages")).toHaveTextContent("hello");

    link.up = true;
    act(() => client.receive(welcomeFrame()));
    expect(sent).toEqual([{ type: "prompt", sessionId: "s1", text: "hello" }]);
    expect(screen.queryByTestId("held-messages")).toBeNull();
    act(() => client.receive(welcomeFrame()));
    expect(sent).toHaveLength(1);
  });

  it("[W7] refuses a command while disconnected, with the reason, and keeps the text", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer([], false);
    await user.type(input, "/mode yolo{Enter}");
    expect(sent).toEqual([]);
    expect(screen.getByRole("alert")).toHaveTextContent("Not sent: the connection is down.");
    expect(input).toHaveValue("/mode yolo");
  });

  it("[W14] starts from the server's draft and saves what is typed as the new draft", () => {
    // Synchronous input events and a fake setTimeout: the pause the save waits for is the test's
    // to make, not a slow machine's.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { input, sent } = renderComposer([{ kind: "composer.draft", text: "half" }], true, true);
    expect(input).toHaveValue("half");
    fireEvent.input(input, { target: { value: "half d" } });
    fireEvent.input(input, { target: { value: "half done" } });
    expect(sent).toEqual([]);
    act(() => {
      vi.advanceTimersByTime(COMPOSER_DRAFT_DEBOUNCE_MS);
    });
    expect(sent).toEqual([{ type: "composer.draft", sessionId: "s1", text: "half done" }]);
  });

  it("[P1] shows the current mode, plan over the permission mode", () => {
    renderComposer([
      { kind: "session.modeChanged", mode: { permissionMode: "edit", planEnabled: true } },
    ]);
    expect(screen.getByTestId("mode-chip")).toHaveTextContent("Plan");
    expect(screen.getByTestId("mode-chip")).toHaveAttribute("data-mode", "plan");
  });

  it("offers Stop while a turn runs, sending turn.cancel", async () => {
    const user = userEvent.setup();
    const { sent } = renderComposer([{ kind: "turn.started" }]);
    await user.click(screen.getByRole("button", { name: "Stop" }));
    expect(sent).toEqual([{ type: "turn.cancel", sessionId: "s1" }]);
  });

  it("[Q7] shows the head of the pending queue above a composer that stays usable", async () => {
    const user = userEvent.setup();
    const { input, sent } = renderComposer([
      { kind: "interaction.requested", request: questionRequest("q1") },
      { kind: "interaction.requested", request: questionRequest("q2") },
    ]);
    expect(screen.getByText("Which database for q1?")).toBeInTheDocument();
    expect(screen.queryByText("Which database for q2?")).toBeNull();
    await user.type(input, "why?{Enter}");
    expect(sent).toContainEqual({ type: "prompt", sessionId: "s1", text: "why?" });
  });

  it("[I7] Chat about it cancels the review and puts focus back in the message box", async () => {
    const user = userEvent.setup();
    const review = {
      ...questionRequest("r1"),
      toolName: "ExitPlanMode",
      questions: [
        {
          question: "Shall I carry out this plan?",
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
    const { input, sent } = renderComposer([{ kind: "interaction.requested", request: review }]);
    await user.click(screen.getByRole("button", { name: "Chat about it" }));
    expect(sent).toContainEqual({ type: "interaction.cancel", interactionId: "r1" });
    expect(input).toHaveFocus();
  });

  it("[W7] an Approve clicked offline is held, sent once on reconnect, and a rejection re-arms the card", async () => {
    const user = userEvent.setup();
    const review = {
      ...questionRequest("r1"),
      toolName: "ExitPlanMode",
      questions: [
        {
          question: "Shall I carry out this plan?",
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
    const { sent, client, link } = renderComposer(
      [{ kind: "interaction.requested", request: review }],
      false,
    );
    expect(screen.getByTestId("offline-hint")).toHaveTextContent("Offline");
    const approve = screen.getByRole("button", { name: "Approve" });
    await user.click(approve);
    expect(sent).toEqual([]);
    expect(approve).toBeDisabled();
    expect(screen.getByTestId("offline-hint")).toHaveTextContent("will be sent when reconnected");

    link.up = true;
    act(() => client.receive(welcomeFrame()));
    const answer = {
      type: "interaction.answer",
      interactionId: "r1",
      answers: {
        "Shall I carry out this plan?": { labels: ["Approve"], review: { option: "default" } },
      },
    };
    expect(sent).toEqual([answer]);
    expect(screen.queryByTestId("offline-hint")).toBeNull();
    act(() => client.receive(welcomeFrame()));
    expect(sent).toEqual([answer]);

    act(() =>
      client.receive({
        type: "receipt",
        interactionId: "r1",
        ok: false,
        code: "ALREADY_ANSWERED",
        message: "this interaction is already resolved",
      }),
    );
    expect(screen.getByRole("button", { name: "Approve" })).toBeEnabled();
  });

  it("[X3] says so when another tab settles the question shown here", () => {
    const { client } = renderComposer([
      { kind: "interaction.requested", request: questionRequest("q1") },
    ]);
    act(() =>
      client.receive({
        type: "event",
        sessionId: "s1",
        seq: 3,
        at: 3,
        entry: {
          kind: "interaction.resolved",
          interactionId: "q1",
          outcome: { type: "cancelled" },
        },
      }),
    );
    expect(screen.getByRole("status")).toHaveTextContent("Answered elsewhere");
    expect(screen.queryByText("Which database for q1?")).toBeNull();
  });

  it("[A3] closes quietly when the question continued on its own", () => {
    const { client } = renderComposer([
      { kind: "interaction.requested", request: questionRequest("q1") },
    ]);
    act(() =>
      client.receive({
        type: "event",
        sessionId: "s1",
        seq: 3,
        at: 3,
        entry: {
          kind: "interaction.resolved",
          interactionId: "q1",
          outcome: { type: "answered", answers: {}, auto: true },
        },
      }),
    );
    expect(screen.queryByText("Answered elsewhere")).toBeNull();
    expect(screen.queryByText("Which database for q1?")).toBeNull();
  });
});
