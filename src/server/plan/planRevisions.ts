import type { PlanComment, PlanRevision, StoredEntry } from "../../protocol/index.ts";
import { inPlanOrder, planCommentsText } from "./planComments.ts";

/** Enough to show what the last revision was told; older messages stay in the transcript. */
const MAX_FEEDBACK = 20;
const MAX_FEEDBACK_CHARS = 4_000;

interface Reviewed {
  interactionId: string;
  question: string;
  plan: string;
  approve: string;
}

/**
 * X4: every plan review of a session (ExitPlanMode's, or review_plan's over MCP) is a
 * numbered revision. The review for `toolCallId` is
 * the next one; it carries the plan of the one before and the feedback that one got: the
 * text sent with Refuse and whatever the user wrote to the agent while it was current.
 */
export function planRevisionFor(entries: readonly StoredEntry[], toolCallId: string): PlanRevision {
  let count = 0;
  let last: Reviewed | undefined;
  let feedback: string[] = [];
  let comments: PlanComment[] = [];
  // The comments reach the model as a message of their own; the card shows them at their anchors.
  let steered: string | undefined;
  const note = (text: string | undefined) => {
    const trimmed = text?.trim().slice(0, MAX_FEEDBACK_CHARS);
    if (trimmed && !feedback.includes(trimmed)) feedback.push(trimmed);
  };
  for (const { entry } of entries) {
    if (entry.kind === "interaction.requested") {
      const { request } = entry;
      const question = request.kind === "question" ? request.questions[0] : undefined;
      if (
        request.toolCallId === toolCallId ||
        question?.intent?.kind !== "plan-review" ||
        question.detail === undefined
      ) {
        continue;
      }
      count += 1;
      last = {
        interactionId: request.interactionId,
        question: question.question,
        plan: question.detail,
        approve: question.intent.approve,
      };
      feedback = [];
      comments = [];
      steered = undefined;
    } else if (
      entry.kind === "interaction.resolved" &&
      entry.interactionId === last?.interactionId
    ) {
      if (entry.outcome.type === "answered") {
        const answer = entry.outcome.answers[last.question];
        note(answer?.other);
        comments = answer?.review?.comments ?? [];
        if (comments.length > 0 && !answer?.labels.includes(last.approve)) {
          steered = planCommentsText(inPlanOrder(comments), answer?.other?.trim());
        }
      }
    } else if (
      entry.kind === "user.message" &&
      last !== undefined &&
      !entry.synthetic &&
      entry.text !== steered
    ) {
      note(entry.text);
    }
  }
  if (last === undefined) return { number: 1 };
  return {
    number: count + 1,
    previous: {
      plan: last.plan,
      feedback: feedback.slice(-MAX_FEEDBACK),
      ...(comments.length > 0 ? { comments } : {}),
    },
  };
}
