import type { AskUserQuestionItem, QuestionAnswer, ReceiptCode } from "../../protocol/index.ts";
import { commentsOutsidePlan } from "../plan/planComments.ts";
import { planContentHash } from "../plan/planHash.ts";

/**
 * V5/V8: a plan-review extension is only for a plan review, and an answer naming a
 * revision's hash must name the text this review shows; anything else is stale and refused.
 * Returns the refusal, or undefined when the answer may stand.
 */
export function planReviewAnswerProblem(
  question: AskUserQuestionItem,
  answer: QuestionAnswer,
): { message: string; code?: ReceiptCode } | undefined {
  if (answer.review === undefined) return undefined;
  if (question.intent?.kind !== "plan-review") {
    return { message: `"${question.question}" is no plan review` };
  }
  const seen = answer.review.planHash;
  if (seen !== undefined && seen !== planContentHash(question.detail ?? "")) {
    return {
      message: "the plan changed since you saw it: review the current revision",
      code: "PLAN_CHANGED",
    };
  }
  if (commentsOutsidePlan(question.detail ?? "", answer.review.comments ?? [])) {
    return { message: "a comment points at lines outside the plan: review the current revision" };
  }
  return undefined;
}
