import type { InteractionOutcome, InteractionRequest } from "../../protocol/index.ts";
import { planReviewOf } from "./planReviewOf.ts";

/** W9: how a plan review ended, in the words the transcript card uses. */
export type PlanDecision =
  | { kind: "approved" }
  | { kind: "refused"; feedback?: string }
  | { kind: "chat" }
  | { kind: "closed" };

export interface DecidedPlan {
  plan: string;
  revision: number;
  decision: PlanDecision;
}

/** Reads a resolved plan review back from its request and outcome; null when it was no plan review. */
export function decidedPlanOf(
  request: InteractionRequest | undefined,
  outcome: InteractionOutcome,
): DecidedPlan | null {
  if (request?.kind !== "question") return null;
  const review = planReviewOf(request);
  if (review === null) return null;
  const base = { plan: review.plan, revision: review.revision?.number ?? 1 };
  switch (outcome.type) {
    case "cancelled":
      return { ...base, decision: { kind: "chat" } };
    case "aborted":
    case "decided":
      return { ...base, decision: { kind: "closed" } };
    case "answered": {
      const answer = outcome.answers[review.question.question];
      const feedback = answer?.other?.trim() || undefined;
      if (answer?.labels.includes(review.approve.label))
        return { ...base, decision: { kind: "approved" } };
      if (answer === undefined) return { ...base, decision: { kind: "closed" } };
      return { ...base, decision: feedback ? { kind: "refused", feedback } : { kind: "refused" } };
    }
  }
}
