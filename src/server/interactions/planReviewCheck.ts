import type {
  AskUserQuestionItem,
  InteractionRequest,
  QuestionAnswer,
  QuestionAnswers,
  QuestionRequest,
  ReceiptCode,
} from "../../protocol/index.ts";
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
  if (answer.review.ask && (answer.labels.length > 0 || answer.other === undefined)) {
    return { message: "a question about the plan carries its text and no option" };
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

/**
 * V8: an approval of a revision that a newer one of the same session already waits behind is
 * stale, even though its own text is unchanged: the person would approve a plan the agent has
 * replaced. Other answers (refusing it, asking about it) stay allowed.
 */
export function supersededApprovalProblem(
  request: QuestionRequest,
  answers: QuestionAnswers,
  pendingInSession: readonly InteractionRequest[],
): { message: string; code: ReceiptCode } | undefined {
  const number = request.planRevision?.number;
  const question = request.questions[0];
  if (number === undefined || question?.intent?.kind !== "plan-review") return undefined;
  if (!answers[question.question]?.labels.includes(question.intent.approve)) return undefined;
  const newer = pendingInSession.some(
    (other) => other.kind === "question" && (other.planRevision?.number ?? 0) > number,
  );
  if (!newer) return undefined;
  return {
    message: "a newer revision of this plan is waiting: review that one",
    code: "PLAN_CHANGED",
  };
}
