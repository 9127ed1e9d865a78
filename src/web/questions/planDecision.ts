import type { InteractionOutcome, InteractionRequest } from "../../protocol/index.ts";
import { planReviewOf } from "./planReviewOf.ts";

/** W9: how a plan review ended, in the words the transcript card uses. */
export type PlanDecision =
  | { kind: "approved"; edited?: true }
  /** V7: a question about the plan, which neither approved nor refused it. */
  | { kind: "asked"; question: string }
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
      if (answer?.review?.ask && feedback !== undefined) {
        return { ...base, decision: { kind: "asked", question: feedback } };
      }
      if (answer?.labels.includes(review.approve.label)) {
        // V6: what was approved is the person's edited text, so that is what stays readable.
        const edited = answer.review?.editedPlan;
        if (edited !== undefined && edited.trim() !== "") {
          return { ...base, plan: edited, decision: { kind: "approved", edited: true } };
        }
        return { ...base, decision: { kind: "approved" } };
      }
      if (answer === undefined) return { ...base, decision: { kind: "closed" } };
      return { ...base, decision: feedback ? { kind: "refused", feedback } : { kind: "refused" } };
    }
  }
}
