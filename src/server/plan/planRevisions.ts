import type { PlanComment, PlanRevision, SessionEntry, StoredEntry } from "../../protocol/index.ts";
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
 * numbered revision. The next review carries the plan of the one before and the feedback that
 * one got: the text sent with Refuse and whatever the user wrote to the agent while it was
 * current. Folded entry by entry, so asking costs nothing however long the session is.
 */
export class PlanRevisions {
  private count = 0;
  private last: Reviewed | undefined;
  private feedback: string[] = [];
  private comments: PlanComment[] = [];
  /** The comments reach the model as a message of their own; the card shows them at their anchors. */
  private steered: string | undefined;
  /** The revision the last review was asked as, so a re-run of its call asks as the same. */
  private lastAsked: { toolCallId: string; revision: PlanRevision } | undefined;

  static fromEntries(entries: readonly StoredEntry[]): PlanRevisions {
    const revisions = new PlanRevisions();
    for (const { entry } of entries) revisions.add(entry);
    return revisions;
  }

  add(entry: SessionEntry): void {
    if (entry.kind === "interaction.requested") {
      const { request } = entry;
      const question = request.kind === "question" ? request.questions[0] : undefined;
      if (question?.intent?.kind !== "plan-review" || question.detail === undefined) return;
      this.lastAsked = { toolCallId: request.toolCallId, revision: this.next() };
      this.count += 1;
      this.last = {
        interactionId: request.interactionId,
        question: question.question,
        plan: question.detail,
        approve: question.intent.approve,
      };
      this.feedback = [];
      this.comments = [];
      this.steered = undefined;
    } else if (
      entry.kind === "interaction.resolved" &&
      entry.interactionId === this.last?.interactionId
    ) {
      const answer =
        entry.outcome.type === "answered" ? entry.outcome.answers[this.last.question] : undefined;
      // V7: a question about the plan is no feedback on it; its answer is in the transcript.
      if (!answer?.review?.ask) this.note(answer?.other);
      this.comments = answer?.review?.comments ?? [];
      if (this.comments.length > 0 && !answer?.labels.includes(this.last.approve)) {
        this.steered = planCommentsText(inPlanOrder(this.comments), answer?.other?.trim());
      }
    } else if (
      entry.kind === "user.message" &&
      this.last !== undefined &&
      !entry.synthetic &&
      entry.text !== this.steered
    ) {
      this.note(entry.text);
    }
  }

  /** The revision a review asked by `toolCallId` is. */
  for(toolCallId: string): PlanRevision {
    if (this.lastAsked?.toolCallId === toolCallId) return this.lastAsked.revision;
    return this.next();
  }

  private next(): PlanRevision {
    if (this.last === undefined) return { number: 1 };
    return {
      number: this.count + 1,
      previous: {
        plan: this.last.plan,
        feedback: this.feedback.slice(-MAX_FEEDBACK),
        ...(this.comments.length > 0 ? { comments: this.comments } : {}),
      },
    };
  }

  private note(text: string | undefined): void {
    const trimmed = text?.trim().slice(0, MAX_FEEDBACK_CHARS);
    if (trimmed && !this.feedback.includes(trimmed)) this.feedback.push(trimmed);
  }
}
