import type { PlanRevision, StoredEntry } from "../../protocol/index.ts";

/** Enough to show what the last revision was told; older messages stay in the transcript. */
const MAX_FEEDBACK = 20;
const MAX_FEEDBACK_CHARS = 4_000;

interface Reviewed {
  interactionId: string;
  question: string;
  plan: string;
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
      };
      feedback = [];
    } else if (
      entry.kind === "interaction.resolved" &&
      entry.interactionId === last?.interactionId
    ) {
      const answer =
        entry.outcome.type === "answered" ? entry.outcome.answers[last.question] : undefined;
      // V7: a question about the plan is no feedback on it; its answer is in the transcript.
      if (!answer?.review?.ask) note(answer?.other);
    } else if (entry.kind === "user.message" && last !== undefined && !entry.synthetic) {
      note(entry.text);
    }
  }
  if (last === undefined) return { number: 1 };
  return {
    number: count + 1,
    previous: { plan: last.plan, feedback: feedback.slice(-MAX_FEEDBACK) },
  };
}
