import { describe, expect, it } from "vitest";
import type { QuestionRequest, SessionEntry, StoredEntry } from "../../protocol/index.ts";
import { planReviewRequest } from "../store/fixtures.ts";
import { transcriptItems } from "./transcriptItems.ts";

const PLAN = "# Plan\n\n1. migrate";

function reviewRequest(interactionId: string, revision = 1): QuestionRequest {
  return { ...planReviewRequest(interactionId, PLAN), planRevision: { number: revision } };
}

function log(...entries: SessionEntry[]): StoredEntry[] {
  return entries.map((entry, index) => ({ seq: index + 1, at: index, entry }));
}

const plan = (mode: "build" | "plan"): SessionEntry => ({
  kind: "session.modeChanged",
  mode: { permissionMode: "build", planEnabled: mode === "plan" },
});

describe("transcriptItems", () => {
  it("[W9] a refused plan review becomes a decided-plan card with its revision and feedback", () => {
    const items = transcriptItems(
      log(
        { kind: "interaction.requested", request: reviewRequest("r2", 2) },
        {
          kind: "interaction.resolved",
          interactionId: "r2",
          outcome: {
            type: "answered",
            answers: {
              "Review this implementation plan": { labels: ["Refuse"], other: "Smaller" },
            },
            auto: false,
          },
        },
      ),
    );
    expect(items).toEqual([
      {
        kind: "planDecided",
        seq: 2,
        decided: { plan: PLAN, revision: 2, decision: { kind: "refused", feedback: "Smaller" } },
      },
    ]);
  });

  it("[W9] Chat about it keeps the plan as a card set aside to chat, not 'Questions dismissed'", () => {
    const items = transcriptItems(
      log(
        { kind: "interaction.requested", request: reviewRequest("r1") },
        { kind: "interaction.resolved", interactionId: "r1", outcome: { type: "cancelled" } },
      ),
    );
    expect(items.map((item) => item.kind)).toEqual(["planDecided"]);
    expect(items[0]).toMatchObject({ decided: { decision: { kind: "chat" } } });
  });

  it("[W9] an approval folds the saved plan's path into the one decided card", () => {
    const items = transcriptItems(
      log(
        { kind: "interaction.requested", request: reviewRequest("r1") },
        {
          kind: "interaction.resolved",
          interactionId: "r1",
          outcome: {
            type: "answered",
            answers: { "Review this implementation plan": { labels: ["Approve"] } },
            auto: false,
          },
        },
        plan("build"),
        { kind: "plan.approved", plan: PLAN, path: ".zcode/plans/plan-s1.md" },
      ),
    );
    expect(items.map((item) => item.kind)).toEqual(["planDecided", "modeChanged"]);
    expect(items[0]).toMatchObject({
      decided: { decision: { kind: "approved" } },
      saved: { path: ".zcode/plans/plan-s1.md" },
    });
  });

  it("[W9][V6] an approval of an edited plan keeps the edited text, the one approved, marked as edited", () => {
    const EDITED = "# Plan\n\n1. migrate, then verify";
    const items = transcriptItems(
      log(
        { kind: "interaction.requested", request: reviewRequest("r1") },
        {
          kind: "interaction.resolved",
          interactionId: "r1",
          outcome: {
            type: "answered",
            answers: {
              "Review this implementation plan": {
                labels: ["Approve"],
                review: { option: "default", editedPlan: EDITED },
              },
            },
            auto: false,
          },
        },
        { kind: "plan.approved", plan: EDITED, path: ".zcode/plans/plan-s1.md" },
      ),
    );
    expect(items).toEqual([
      {
        kind: "planDecided",
        seq: 2,
        decided: { plan: EDITED, revision: 1, decision: { kind: "approved", edited: true } },
        saved: { path: ".zcode/plans/plan-s1.md" },
      },
    ]);
  });

  it("[W9][V7] a question about the plan becomes a decided card that names the question, not a refusal", () => {
    const items = transcriptItems(
      log(
        { kind: "interaction.requested", request: reviewRequest("r1") },
        {
          kind: "interaction.resolved",
          interactionId: "r1",
          outcome: {
            type: "answered",
            answers: {
              "Review this implementation plan": {
                labels: [],
                other: "Why migrate?",
                review: { ask: true },
              },
            },
            auto: false,
          },
        },
      ),
    );
    expect(items[0]).toMatchObject({
      kind: "planDecided",
      decided: { plan: PLAN, decision: { kind: "asked", question: "Why migrate?" } },
    });
  });

  it("[W9] a question that is no plan review keeps its one-line outcome", () => {
    const request = { ...reviewRequest("q1"), toolName: "AskUserQuestion" };
    request.questions = [{ ...request.questions[0]!, intent: undefined }];
    const items = transcriptItems(
      log(
        { kind: "interaction.requested", request },
        { kind: "interaction.resolved", interactionId: "q1", outcome: { type: "cancelled" } },
      ),
    );
    expect(items.map((item) => item.kind)).toEqual(["resolved"]);
  });

  it("[W9] a review asked on an earlier, unloaded page still becomes a decided card", () => {
    const items = transcriptItems(
      log({ kind: "interaction.resolved", interactionId: "r1", outcome: { type: "cancelled" } }),
      { r1: reviewRequest("r1") },
    );
    expect(items.map((item) => item.kind)).toEqual(["planDecided"]);
  });

  it("[W9] a decided plan keeps its identity when later entries arrive, so its memoised card does not render again", () => {
    const entries = log(
      { kind: "interaction.requested", request: reviewRequest("r1") },
      { kind: "interaction.resolved", interactionId: "r1", outcome: { type: "cancelled" } },
    );
    const decidedIn = (items: ReturnType<typeof transcriptItems>) =>
      items.find((item) => item.kind === "planDecided");
    const before = decidedIn(transcriptItems(entries));
    const later = [
      ...entries,
      { seq: 3, at: 3, entry: { kind: "user.message", text: "next" } } as StoredEntry,
    ];
    const after = decidedIn(transcriptItems(later));
    expect(after?.kind === "planDecided" && after.decided).toBe(
      before?.kind === "planDecided" && before.decided,
    );
  });

  it("[P2] consecutive mode switches fold into one line that shows the last mode", () => {
    const items = transcriptItems(
      log(
        plan("plan"),
        plan("build"),
        plan("plan"),
        { kind: "user.message", text: "hi" },
        plan("build"),
      ),
    );
    expect(items.map((item) => [item.kind, item.seq])).toEqual([
      ["modeChanged", 3],
      ["user", 4],
      ["modeChanged", 5],
    ]);
  });

  it("[M1] a turn that stopped on an error says the error once: the notice has it, the end line says the turn stopped", () => {
    const message = "The model call failed: 127.0.0.1:18080 refused the API key (HTTP 401).";
    const items = transcriptItems(
      log(
        { kind: "notice", level: "error", text: message },
        { kind: "turn.ended", reason: "error", message },
        { kind: "turn.ended", reason: "error", message: "a different failure" },
      ),
    );
    expect(items.map((item) => item.kind)).toEqual(["notice", "turnEnded", "turnEnded"]);
    const [, repeated, alone] = items;
    expect(repeated?.kind === "turnEnded" && repeated.entry.message).toBeUndefined();
    expect(alone?.kind === "turnEnded" && alone.entry.message).toBe("a different failure");
  });
});
