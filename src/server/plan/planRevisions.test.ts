import type { SessionEntry } from "../../protocol/index.ts";
import { CallSteps } from "../sessions/callSteps.ts";
import { SessionProjection } from "../sessions/sessionProjection.ts";
import { planReviewQuestion } from "../tools/exitPlanMode.ts";
import { PlanRevisions } from "./planRevisions.ts";

const REVIEW = "Review this implementation plan";

function requested(interactionId: string, toolCallId: string, plan: string): SessionEntry {
  return {
    kind: "interaction.requested",
    request: {
      kind: "question",
      interactionId,
      sessionId: "sess_1",
      toolName: "ExitPlanMode",
      toolCallId,
      questions: [planReviewQuestion(plan)],
      createdAt: 0,
    },
  };
}

function refused(interactionId: string, other?: string): SessionEntry {
  return {
    kind: "interaction.resolved",
    interactionId,
    outcome: {
      type: "answered",
      auto: false,
      answers: { [REVIEW]: other === undefined ? { labels: ["Refuse"] } : { labels: [], other } },
    },
  };
}

function fold(entries: SessionEntry[]): PlanRevisions {
  return PlanRevisions.fromEntries(
    entries.map((entry, index) => ({ seq: index + 1, at: 0, entry })),
  );
}

describe("plan revisions, folded entry by entry", () => {
  it("[X4] the first review is revision 1; each later one carries the one before and its feedback", () => {
    expect(fold([]).for("call_1")).toEqual({ number: 1 });
    const revisions = fold([
      requested("int_1", "call_1", "plan one"),
      refused("int_1", "Use Redis"),
      { kind: "user.message", text: "and keep it small" },
      { kind: "user.message", text: "a reminder", synthetic: true },
      requested("int_2", "call_2", "plan two"),
      refused("int_2"),
      { kind: "user.message", text: "smaller still" },
    ]);
    expect(revisions.for("call_3")).toEqual({
      number: 3,
      previous: { plan: "plan two", feedback: ["smaller still"] },
    });
  });

  it("[X4][A7] the call that asked the last review gets the revision it was asked as", () => {
    const revisions = fold([
      requested("int_1", "call_1", "plan one"),
      refused("int_1", "Use Redis"),
      requested("int_2", "call_2", "plan two"),
      { kind: "user.message", text: "later words" },
    ]);
    expect(revisions.for("call_2")).toEqual({
      number: 2,
      previous: { plan: "plan one", feedback: ["Use Redis"] },
    });
  });

  it("[X4] a session's projection answers the revision without reading the log again", () => {
    const projection = new SessionProjection();
    const entries = [requested("int_1", "call_1", "plan one"), refused("int_1", "Use Redis")];
    for (const [index, entry] of entries.entries())
      projection.add({ seq: index + 1, at: 0, entry });
    expect(projection.planRevision("call_2")).toEqual({
      number: 2,
      previous: { plan: "plan one", feedback: ["Use Redis"] },
    });
  });
});

describe("call steps (A7)", () => {
  it("[A7][Q5] a call's resolved question is its step until the call has a result", () => {
    const steps = new CallSteps();
    steps.add(requested("int_1", "call_1", "plan"));
    expect(steps.of("call_1")).toBeUndefined();
    steps.add(refused("int_1"));
    // R3: a second resolution in the log changes nothing.
    steps.add({
      kind: "interaction.resolved",
      interactionId: "int_1",
      outcome: { type: "cancelled" },
    });
    expect(steps.of("call_1")).toEqual({
      kind: "question",
      outcome: { type: "answered", auto: false, answers: { [REVIEW]: { labels: ["Refuse"] } } },
    });
    steps.add({
      kind: "tool.result",
      callId: "call_1",
      name: "ExitPlanMode",
      isError: false,
      output: "",
    });
    expect(steps.of("call_1")).toBeUndefined();
  });
});
