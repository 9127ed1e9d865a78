import { describe, expect, it } from "vitest";
import type { AskUserQuestionItem, QuestionRequest } from "../../protocol/index.ts";
import { planReviewOf } from "./planReviewOf.ts";

const reviewItem: AskUserQuestionItem = {
  question: "Review this implementation plan.",
  header: "Plan",
  options: [
    { label: "Approve", description: "Leave plan mode and start" },
    { label: "Refuse", description: "Keep planning" },
  ],
  multiSelect: false,
  detail: "# Plan\n\n1. Do it",
  intent: { kind: "plan-review", approve: "Approve" },
};

function requestOf(...questions: AskUserQuestionItem[]): QuestionRequest {
  return {
    kind: "question",
    interactionId: "i1",
    sessionId: "s1",
    toolName: "ExitPlanMode",
    toolCallId: "c1",
    questions,
    createdAt: 0,
  };
}

describe("planReviewOf", () => {
  it("[I4] claims a single binary plan-review question", () => {
    const review = planReviewOf(requestOf(reviewItem));
    expect(review).toEqual({
      question: reviewItem,
      plan: reviewItem.detail,
      approve: reviewItem.options[0],
      refuse: reviewItem.options[1],
    });
  });

  it("[I4] finds approve by its label, not by its position", () => {
    const reversed = { ...reviewItem, options: [...reviewItem.options].reverse() };
    const review = planReviewOf(requestOf(reversed));
    expect(review?.approve.label).toBe("Approve");
    expect(review?.refuse?.label).toBe("Refuse");
  });

  it("[I4] leaves a batch of two questions to the generic flow", () => {
    const second = { ...reviewItem, question: "Another question?" };
    expect(planReviewOf(requestOf(reviewItem, second))).toBeNull();
  });

  it("[I4] leaves a question without intent to the generic flow", () => {
    const { intent: _intent, ...plain } = reviewItem;
    expect(planReviewOf(requestOf(plain))).toBeNull();
  });

  it("[I4] leaves a question without detail to the generic flow", () => {
    const { detail: _detail, ...bare } = reviewItem;
    expect(planReviewOf(requestOf(bare))).toBeNull();
  });

  it("[I4] leaves a question whose approve label is not offered to the generic flow", () => {
    const item = { ...reviewItem, intent: { kind: "plan-review" as const, approve: "Ship it" } };
    expect(planReviewOf(requestOf(item))).toBeNull();
  });

  it("[I4] keeps a three-option question in the generic flow", () => {
    const item = {
      ...reviewItem,
      options: [...reviewItem.options, { label: "Split it", description: "Two smaller plans" }],
    };
    expect(planReviewOf(requestOf(item))).toBeNull();
  });

  it("[I4] keeps a multi-select question in the generic flow", () => {
    expect(planReviewOf(requestOf({ ...reviewItem, multiSelect: true }))).toBeNull();
  });

  it("[I4] claims an approve-only review and offers no refuse", () => {
    // The wire schema demands two options; a lone approve still narrows if it arrives.
    const item = { ...reviewItem, options: [{ label: "Approve" }] };
    const review = planReviewOf(requestOf(item));
    expect(review).not.toBeNull();
    expect(review?.approve).toEqual({ label: "Approve" });
    expect(review).not.toHaveProperty("refuse");
  });
});
