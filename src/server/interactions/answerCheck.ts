import {
  type AskUserQuestionItem,
  QuestionAnswers,
  type ReceiptCode,
} from "../../protocol/index.ts";
import { planReviewAnswerProblem } from "./planReviewCheck.ts";

export type AnswerCheck =
  | { ok: true; answers: QuestionAnswers }
  | { ok: false; message: string; code?: ReceiptCode };

/**
 * Q3/R3: answers must fit the batch they answer: keyed by its question texts, picking only
 * offered labels, at most one pick (label or custom text) on a single-select question, and
 * never blank. A plan review's text is feedback beside its one label (P9). `{}` is legal: nothing was answered.
 */
export function checkAnswers(
  questions: readonly AskUserQuestionItem[],
  answers: unknown,
): AnswerCheck {
  const parsed = QuestionAnswers.safeParse(answers);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { ok: false, message: `malformed answers: ${first?.message ?? "invalid"}` };
  }
  const byText = new Map(questions.map((question) => [question.question, question]));
  for (const [text, answer] of Object.entries(parsed.data)) {
    const question = byText.get(text);
    if (!question) return { ok: false, message: `no question "${text}" in this batch` };
    const offered = new Set(question.options.map((option) => option.label));
    const picked = new Set<string>();
    for (const label of answer.labels) {
      if (!offered.has(label)) {
        return { ok: false, message: `"${label}" was never offered for "${text}"` };
      }
      if (picked.has(label)) return { ok: false, message: `"${label}" is picked twice` };
      picked.add(label);
    }
    const reviewProblem = planReviewAnswerProblem(question, answer);
    if (reviewProblem !== undefined) return { ok: false, ...reviewProblem };
    // P9: on a plan review the text is feedback that goes with the verdict, not a second pick.
    const textIsPick = answer.other !== undefined && question.intent?.kind !== "plan-review";
    const picks = answer.labels.length + (textIsPick ? 1 : 0);
    if (!question.multiSelect && picks > 1) {
      return { ok: false, message: `"${text}" takes a single answer` };
    }
  }
  return { ok: true, answers: parsed.data };
}
