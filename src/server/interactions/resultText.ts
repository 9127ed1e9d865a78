import type { AskUserQuestionItem, QuestionAnswer, QuestionAnswers } from "../../protocol/index.ts";
import { planCommentsNote } from "../plan/planComments.ts";
import type { AskOutcome } from "../tools/contract.ts";

// Every text the model reads about a user interaction lives here, so the question tool and
// the plan-review tool speak with one voice.

/** Q3: the executor refused an AskUserQuestion input that carries no user answers. */
export const USER_ANSWERS_REQUIRED =
  "AskUserQuestion cannot run without the user's answers: the approval step must fill in `answers` (use {} when nothing was answered).";

function describeAnswer(answer: QuestionAnswer): string {
  const parts = [...answer.labels];
  if (answer.other !== undefined) parts.push(`(in the user's own words) "${answer.other}"`);
  // V2: comments on a plan shown by any asker reach it too, never dropped on the way.
  const comments = answer.review?.comments ?? [];
  if (comments.length > 0) {
    parts.push(`with comments on the plan, in plan order:\n${planCommentsNote(comments)}`);
  }
  return parts.join("; ");
}

function listAnswered(questions: readonly AskUserQuestionItem[], answers: QuestionAnswers): string {
  return questions
    .flatMap((question) => {
      const answer = answers[question.question];
      return answer ? [`- ${question.question}\n  → ${describeAnswer(answer)}`] : [];
    })
    .join("\n");
}

/**
 * Q4: what the model hears after the user submitted (or the countdown expired, A3).
 * All answered, some skipped, or none answered — each says something different.
 */
export function questionsAnsweredText(
  questions: readonly AskUserQuestionItem[],
  answers: QuestionAnswers,
): string {
  const answered = questions.filter((question) => answers[question.question] !== undefined);
  if (answered.length === 0) {
    return [
      "The user left every question unanswered.",
      "This is not a refusal and not a “no” — they simply did not pick anything.",
      "Continue with reasonable defaults, say briefly which defaults you chose,",
      "and do not invent preferences the user never stated.",
    ].join(" ");
  }
  const list = listAnswered(questions, answers);
  if (answered.length === questions.length) {
    return `The user answered your questions:\n${list}\n\nProceed according to these answers.`;
  }
  const skipped = questions.filter((question) => answers[question.question] === undefined);
  const skippedList = skipped.map((question) => `- ${question.question}`).join("\n");
  const count = skipped.length === 1 ? "1 question" : `${skipped.length} questions`;
  return [
    `The user answered ${answered.length} of ${questions.length} questions:`,
    list,
    "",
    `They skipped ${count}:`,
    skippedList,
    "",
    "Use your own judgment for the skipped ones and mention what you decided.",
  ].join("\n");
}

/** Q8: the user closed the questions (×) instead of answering. */
export function questionsCancelledText(): string {
  return [
    "The user dismissed your questions without answering them.",
    "Do not assume any answers. If you still need their decision, ask in plain chat;",
    "otherwise continue carefully and avoid anything that depends on it.",
  ].join(" ");
}

/** Q8: nobody is coming to answer — the turn was stopped or the provider torn down. */
export function questionsAbortedText(reason: string): string {
  return [
    `The questions were withdrawn before anyone answered them (${reason}).`,
    "No user reply is coming for them: treat nothing as decided and do not act as if they were answered.",
  ].join(" ");
}

/** The tool result for any outcome of an AskUserQuestion batch. */
export function questionResultText(
  questions: readonly AskUserQuestionItem[],
  outcome: AskOutcome,
): string {
  switch (outcome.type) {
    case "answered":
      return questionsAnsweredText(questions, outcome.answers);
    case "cancelled":
      return questionsCancelledText();
    case "aborted":
      return questionsAbortedText(outcome.reason);
  }
}

/** I7: "Chat about it" on a plan review — the user wants to talk before deciding. */
export function planReviewDismissedText(): string {
  return [
    "The user set the plan review aside because they want to discuss it with you first.",
    "The plan is neither approved nor refused. Stay in plan mode, make no changes,",
    "and wait for the user's next message.",
  ].join(" ");
}

/** X2: the user answered a question after it had continued on its own. */
export function lateAnswerText(
  questions: readonly AskUserQuestionItem[],
  answers: QuestionAnswers,
): string {
  return [
    "Earlier you continued without answers because the user did not respond in time.",
    "They have now answered after all:",
    listAnswered(questions, answers),
    "",
    "Take these answers into account from here on, and revisit anything you decided differently.",
  ].join("\n");
}
