import { isDeepStrictEqual } from "node:util";
import {
  type AskUserQuestionItem,
  AskUserQuestionItems,
  type PlanRevision,
} from "../../protocol/index.ts";
import type { QuestionAsker } from "./outcomes.ts";

export const ASK_USER_QUESTION_TOOL = "AskUserQuestion";

export type QuestionRequestErrorCode = "BAD_INTENT" | "BAD_QUESTIONS";

/** Thrown at the asker, before anything is stored or shown (Q1, I2). */
export class QuestionRequestError extends Error {
  constructor(
    readonly code: QuestionRequestErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "QuestionRequestError";
  }
}

export interface QuestionAsk {
  toolName: string;
  toolCallId: string;
  questions: AskUserQuestionItem[];
  /** X4: set by ExitPlanMode; travels with the request to the card. */
  planRevision?: PlanRevision;
}

export type EnqueueQuestions = (
  sessionId: string,
  request: QuestionAsk,
  signal: AbortSignal,
  asker: QuestionAsker,
) => void;

/**
 * Q1 + I2: the batch must match the wire contract, and an intent must be honest about its
 * question: it needs the detail it reviews, and its approve label must be one of that
 * question's own options. Returns the parsed (normalised) questions.
 */
export function validateQuestionBatch(questions: unknown): AskUserQuestionItem[] {
  const parsed = AskUserQuestionItems.safeParse(questions);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
    throw new QuestionRequestError("BAD_QUESTIONS", `${issue?.message ?? "invalid"}${where}`);
  }
  parsed.data.forEach((question, index) => {
    const intent = question.intent;
    if (!intent) return;
    if (question.detail === undefined || question.detail.trim() === "") {
      throw new QuestionRequestError(
        "BAD_INTENT",
        `question ${index + 1} declares a ${intent.kind} intent but has no detail to review`,
      );
    }
    if (!question.options.some((option) => option.label === intent.approve)) {
      throw new QuestionRequestError(
        "BAD_INTENT",
        `question ${index + 1} names "${intent.approve}" as approve, which none of its options offer`,
      );
    }
  });
  return parsed.data;
}

/** The one way questions reach the user: validate at the asker, then queue (I2, I3). */
export class UserQuestionService {
  constructor(private readonly enqueue: EnqueueQuestions) {}

  /** Throws, before anything is stored, when the questions are invalid or the log refused them. */
  ask(sessionId: string, request: QuestionAsk, signal: AbortSignal, asker: QuestionAsker): void {
    const questions = validateQuestionBatch(request.questions);
    // Issue 15: questions the asker's own schema already parsed come back equal; keeping the
    // asker's copy spares every waiting question a second one.
    const kept = isDeepStrictEqual(questions, request.questions) ? request.questions : questions;
    this.enqueue(sessionId, { ...request, questions: kept }, signal, asker);
  }
}
