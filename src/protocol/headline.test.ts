import { headlineOf } from "./headline.ts";
import type { InteractionRequest } from "./interactions.ts";

const base = { interactionId: "i1", sessionId: "s1", toolCallId: "t1", createdAt: 0 };

function planReview(detail: string): InteractionRequest {
  return {
    ...base,
    kind: "question",
    toolName: "ExitPlanMode",
    questions: [
      {
        question: "Review this implementation plan",
        header: "Plan",
        options: [{ label: "Approve" }, { label: "Refuse" }],
        multiSelect: false,
        detail,
        intent: { kind: "plan-review", approve: "Approve" },
      },
    ],
  } as InteractionRequest;
}

describe("headlineOf (U1, U3)", () => {
  it("[U1] names a plan review by its plan's title, in the plan's own words", () => {
    expect(headlineOf(planReview("\n\n## Plan: cache the model catalog ##\n\nSteps…"))).toBe(
      "Plan: cache the model catalog",
    );
    expect(headlineOf(planReview("Move the tests\nthen the docs"))).toBe("Move the tests");
    expect(headlineOf(planReview(`# ${"计划".repeat(100)}`))).toHaveLength(120);
  });

  it("[U1] names a question by its text, and a permission by its tool and what it touches", () => {
    const question = planReview("");
    expect(headlineOf(question)).toBe("Review this implementation plan");
    const permission = {
      ...base,
      kind: "permission",
      toolName: "Write",
      summary: "notes.md",
    } as InteractionRequest;
    expect(headlineOf(permission)).toBe("Write · notes.md");
  });
});
