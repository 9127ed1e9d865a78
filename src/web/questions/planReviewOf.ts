import type {
  AskUserQuestionItem,
  PlanRevision,
  QuestionOption,
  QuestionRequest,
} from "../../protocol/index.ts";

/** A question the plan-review card can answer completely (I4). */
export interface PlanReview {
  question: AskUserQuestionItem;
  plan: string;
  approve: QuestionOption;
  refuse?: QuestionOption;
  /** X4: set by the server for ExitPlanMode reviews. */
  revision?: PlanRevision;
}

/**
 * I4: claims a request only when two buttons can send every answer it allows;
 * anything else stays in the generic flow, so an intent never costs a reachable answer.
 */
export function planReviewOf(request: QuestionRequest): PlanReview | null {
  if (request.questions.length !== 1) return null;
  const question = request.questions[0];
  if (question === undefined) return null;
  const { intent, detail, options, multiSelect } = question;
  if (intent?.kind !== "plan-review") return null;
  if (detail === undefined || detail.trim() === "") return null;
  if (multiSelect) return null;
  const approve = options.find((option) => option.label === intent.approve);
  if (approve === undefined) return null;
  const others = options.filter((option) => option !== approve);
  if (others.length > 1) return null;
  const review: PlanReview = { question, plan: detail, approve };
  if (others[0] !== undefined) review.refuse = others[0];
  if (request.planRevision !== undefined) review.revision = request.planRevision;
  return review;
}
