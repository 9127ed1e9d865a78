import { z } from "zod";
import { ModelQuestionItems, QuestionAnswer } from "../../protocol/index.ts";
import { checkAnswers } from "../interactions/answerCheck.ts";
import { ASK_USER_QUESTION_TOOL } from "../interactions/questionService.ts";
import {
  questionResultText,
  questionsAnsweredText,
  USER_ANSWERS_REQUIRED,
} from "../interactions/resultText.ts";
import type {
  AskOutcome,
  FilledInputCheck,
  ToolContract,
  ToolResult,
  UserStep,
  UserStepDecision,
} from "./contract.ts";

const DESCRIPTION = `Ask the user one to four multiple-choice questions and wait for their choices.

Ask only when you cannot go on without a choice that is the user's to make, such as a product direction or a trade-off they care about. If their request, the codebase or a sensible default already settles it, decide yourself and keep working instead of asking.

- Each question offers 2–4 options with a short label and a description of what choosing it means. The user can always type their own answer instead, so do not add an "Other" option.
- If you recommend an option, put it first and end its label with " (Recommended)".
- Set multiSelect when several options can apply together.
- Keep the header a short topic chip (at most 16 characters), e.g. "Database".
- Put longer context the user needs in \`detail\` (markdown).
- The user may skip questions or not answer at all; the result tells you which, and you carry on.
- Never use this to ask whether a plan is acceptable or ready: submitting a plan for approval is what ExitPlanMode does. To start planning, use EnterPlanMode, not a question.`;

/**
 * Q1/Q2: what the model writes: the protocol's question contract without intents (those are
 * set by server-side askers such as ExitPlanMode, I3), and no `answers` (the user gives those, Q3).
 */
export const AskUserQuestionInput = z.strictObject({ questions: ModelQuestionItems });
export type AskUserQuestionInput = z.infer<typeof AskUserQuestionInput>;

/** Q3/Q5: the input after the approval step filled in the user's answers. */
export const FilledAskUserQuestionInput = z.strictObject({
  questions: ModelQuestionItems,
  answers: z.record(z.string(), QuestionAnswer, {
    error: (issue) => (issue.input === undefined ? USER_ANSWERS_REQUIRED : undefined),
  }),
});
export type FilledAskUserQuestionInput = z.infer<typeof FilledAskUserQuestionInput>;

/**
 * Q3/Q5: the executor re-validates the filled input before the handler runs. Besides the
 * shape, every answer must fit its batch (offered labels, one pick on single-select).
 */
export function validateFilledInput(input: unknown): FilledInputCheck<FilledAskUserQuestionInput> {
  const parsed = FilledAskUserQuestionInput.safeParse(input);
  if (!parsed.success) {
    const missing = parsed.error.issues.find((issue) => issue.message === USER_ANSWERS_REQUIRED);
    if (missing) return { ok: false, message: USER_ANSWERS_REQUIRED };
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` (at ${issue.path.join(".")})` : "";
    return { ok: false, message: `Invalid AskUserQuestion input: ${issue?.message}${where}` };
  }
  const checked = checkAnswers(parsed.data.questions, parsed.data.answers);
  if (!checked.ok)
    return { ok: false, message: `Invalid AskUserQuestion answers: ${checked.message}` };
  return { ok: true, input: { questions: parsed.data.questions, answers: checked.answers } };
}

/** Q5: the user's answers become the call's input; a dismissal or abort is the call's result. */
export const askUserQuestionStep: UserStep<AskUserQuestionInput, FilledAskUserQuestionInput> = {
  asker: ASK_USER_QUESTION_TOOL,
  request: (input) => ({ questions: input.questions }),
  decide(input, outcome: AskOutcome): UserStepDecision {
    if (outcome.type === "answered") {
      return { type: "modify", input: { ...input, answers: outcome.answers } };
    }
    return { type: "deny", result: { output: questionResultText(input.questions, outcome) } };
  },
  validateFilled: validateFilledInput,
};

/** Runs after the user answered: the answers are in its input (Q3), never asked for here. */
async function run(input: FilledAskUserQuestionInput): Promise<ToolResult> {
  return { output: questionsAnsweredText(input.questions, input.answers) };
}

export const askUserQuestionTool: ToolContract<AskUserQuestionInput, FilledAskUserQuestionInput> = {
  name: ASK_USER_QUESTION_TOOL,
  description: DESCRIPTION,
  inputSchema: AskUserQuestionInput,
  readOnly: true,
  destructive: false,
  requiresUserInteraction: true,
  allowedInPlanMode: true,
  userStep: askUserQuestionStep,
  summarize: (input) => input.questions.map((question) => question.header).join(", "),
  run,
};
