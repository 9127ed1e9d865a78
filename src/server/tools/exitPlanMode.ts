import { z } from "zod";
import {
  type AskUserQuestionItem,
  type PlanApproveOption,
  type PlanComment,
  PlanSubmission,
  QuestionAnswer,
  type QuestionAnswers,
} from "../../protocol/index.ts";
import { checkAnswers } from "../interactions/answerCheck.ts";
import { planReviewDismissedText, USER_ANSWERS_REQUIRED } from "../interactions/resultText.ts";
import { EXIT_PLAN_MODE_TOOL } from "../permissions/policy.ts";
import { planWithNotes } from "../plan/approvalNotes.ts";
import { applyApproveOption } from "../plan/approveOption.ts";
import { inPlanOrder, planCommentsNote, planCommentsText } from "../plan/planComments.ts";
import { planEditDiff } from "../plan/planEditDiff.ts";
import { writePlanFile } from "../plan/planFile.ts";
import { planContentHash } from "../plan/planHash.ts";
import {
  planApprovedText,
  planNotApprovedText,
  planQuestionText,
  planRefusedText,
  planReviewAbortedText,
} from "../plan/planTexts.ts";
import type {
  AskOutcome,
  FilledInputCheck,
  ToolContext,
  ToolContract,
  ToolResult,
  UserStep,
} from "./contract.ts";

const DESCRIPTION = `Submit your finished plan to the user for review and, if they approve it, leave plan mode.

Call it only in plan mode, once you have explored enough to know what to change and how. Pass the whole plan as markdown in \`plan\`: the goal in a sentence or two, the steps in order, the files each step touches, and how the result will be checked. The user reads exactly this text, so make it complete and easy to scan; headings, lists, tables and code blocks are fine.

The user then approves the plan, refuses it, asks a question about it, or sets the review aside to talk. When they approve, plan mode ends and you start carrying the plan out. When they refuse with comments, their comments follow as a message: revise the plan and submit it again. When they ask a question, the result holds it: answer it, then submit the plan again. When they refuse without comment or want to talk, wait for their next message.

This is the one way to ask whether a plan is acceptable: do not ask that with AskUserQuestion or in plain text. Use AskUserQuestion before this point only for real choices the plan depends on.

\`allowedPrompts\` may list actions the plan will need (for example running the test suite). They are shown back to you for reference only and grant no permission.`;

export const REVIEW_QUESTION = "Review this implementation plan";
export const APPROVE_LABEL = "Approve";
export const REFUSE_LABEL = "Refuse";

/** P7: what the model submits, the protocol's plan contract as it is (one source, with MCP's). */
export const ExitPlanModeInput = z.strictObject(PlanSubmission.shape);
export type ExitPlanModeInput = z.infer<typeof ExitPlanModeInput>;

/** Q3/Q5: a plan input after the review step filled in the user's answers. */
export type FilledPlanInput<Input extends { plan: string }> = Input & { answers: QuestionAnswers };

const answersRequired = z.record(z.string(), QuestionAnswer, {
  error: (issue) => (issue.input === undefined ? USER_ANSWERS_REQUIRED : undefined),
});

/** I3: the one review question, with the plan as its detail and Approve named by the intent. */
export function planReviewQuestion(plan: string): AskUserQuestionItem {
  return {
    question: REVIEW_QUESTION,
    header: "Plan",
    detail: plan,
    multiSelect: false,
    options: [
      {
        label: APPROVE_LABEL,
        description: "Leave plan mode and start carrying out this plan.",
      },
      {
        label: REFUSE_LABEL,
        description: "Stay in plan mode; any feedback you write goes to the agent.",
      },
    ],
    intent: { kind: "plan-review", approve: APPROVE_LABEL },
  };
}

/**
 * I3 + X4 + Q5: the review is the call's permission step: the one review question, numbered
 * as the session's next plan revision. The answers become the call's input; a dismissal or a
 * withdrawal is the call's result (`refused`), and the handler never runs.
 */
export function planReviewStep<Input extends { plan: string }>(
  asker: string,
  schema: z.ZodObject,
  refused: (outcome: Exclude<AskOutcome, { type: "answered" }>) => ToolResult,
): UserStep<Input, FilledPlanInput<Input>> {
  const filledSchema = schema.extend({ answers: answersRequired });
  return {
    asker,
    request(input, context) {
      // V8: the revision is named by its text, so an approval can say which text it approves.
      const planRevision = {
        ...(context.planRevision?.(context.toolCallId ?? "") ?? { number: 1 }),
        contentHash: planContentHash(input.plan),
      };
      return { questions: [planReviewQuestion(input.plan)], planRevision };
    },
    decide(input, outcome) {
      if (outcome.type !== "answered") return { type: "deny", result: refused(outcome) };
      return { type: "modify", input: { ...input, answers: outcome.answers } };
    },
    validateFilled(input): FilledInputCheck<FilledPlanInput<Input>> {
      const parsed = filledSchema.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        if (issue?.message === USER_ANSWERS_REQUIRED) return { ok: false, message: issue.message };
        const where = issue?.path.length ? ` (at ${issue.path.join(".")})` : "";
        return { ok: false, message: `Invalid ${asker} input: ${issue?.message}${where}` };
      }
      const filled = parsed.data as FilledPlanInput<Input>;
      const checked = checkAnswers([planReviewQuestion(filled.plan)], filled.answers);
      if (!checked.ok)
        return { ok: false, message: `Invalid ${asker} answers: ${checked.message}` };
      return { ok: true, input: { ...filled, answers: checked.answers } };
    },
  };
}

export interface ExitPlanModeDeps {
  /** Where a plan file that could not be written is reported (P8: the exit goes on). */
  logError?: (message: string, error: unknown) => void;
}

export type PlanVerdict =
  | {
      type: "approve";
      note?: string;
      option: PlanApproveOption;
      editedPlan?: string;
      comments?: PlanComment[];
    }
  /** `text` is what the model reads: the overall feedback, with the comments (V2) when any. */
  | { type: "feedback"; text: string; comments?: PlanComment[] }
  | { type: "ask"; question: string }
  | { type: "refuse" }
  | { type: "dismiss" };

/** How a plan review's answers read: shared with the MCP bridge's review_plan (X1). */
export function verdictOf(answers: QuestionAnswers): PlanVerdict {
  const answer: QuestionAnswer | undefined = answers[REVIEW_QUESTION];
  const other = answer?.other?.trim() || undefined;
  // V7: a question is no verdict; the answer check made sure it carries no label.
  if (answer?.review?.ask && other !== undefined) return { type: "ask", question: other };
  const given = answer?.review?.comments ?? [];
  const comments = given.length > 0 ? inPlanOrder(given) : undefined;
  if (answer?.labels.includes(APPROVE_LABEL)) {
    const option = answer.review?.option ?? "default";
    const edited = answer.review?.editedPlan;
    // V4: comments given with an approval become part of its notes.
    const notes = [other, comments && planCommentsNote(comments)].filter(Boolean).join("\n\n");
    return {
      type: "approve",
      option,
      ...(notes === "" ? {} : { note: notes }),
      ...(edited === undefined || edited.trim() === "" ? {} : { editedPlan: edited }),
      ...(comments === undefined ? {} : { comments }),
    };
  }
  if (comments !== undefined) {
    return { type: "feedback", text: planCommentsText(comments, other), comments };
  }
  if (other !== undefined) return { type: "feedback", text: other };
  if (answer?.labels.includes(REFUSE_LABEL)) return { type: "refuse" };
  // Nothing chosen at all: skipping is not a verdict, so planning simply goes on.
  return { type: "dismiss" };
}

async function approve(
  input: FilledPlanInput<ExitPlanModeInput>,
  verdict: Extract<PlanVerdict, { type: "approve" }>,
  context: ToolContext,
  deps: ExitPlanModeDeps,
): Promise<ToolResult> {
  const { note, option } = verdict;
  // V6: what the person edited is what is approved, saved and carried out.
  const plan = verdict.editedPlan ?? input.plan;
  let path: string | undefined;
  try {
    // V4: the notes are kept under the plan they were given with.
    const saved = planWithNotes(plan, note);
    path = await writePlanFile(context.workspace, context.sessionId, saved, context.signal);
  } catch (error) {
    if (context.signal.aborted) throw error;
    (deps.logError ?? console.error)(
      `session ${context.sessionId}: could not save the approved plan`,
      error,
    );
  }
  const mode = applyApproveOption(context, option);
  context.recordPlanApproved?.(plan, path, option === "fresh");
  return {
    output: planApprovedText({
      plan,
      ...(verdict.editedPlan === undefined
        ? {}
        : { editDiff: planEditDiff(input.plan, verdict.editedPlan) }),
      path,
      allowedPrompts: input.allowedPrompts,
      note,
      option,
      permissionMode: mode?.permissionMode,
    }),
  };
}

function steerFeedback(text: string, context: ToolContext): ToolResult {
  try {
    if (!context.steerUserMessage) throw new Error("this session cannot take a steered message");
    context.steerUserMessage(text);
  } catch {
    // The feedback must still reach the model, so it rides in the result instead.
    return { output: `${planNotApprovedText()} Their feedback:\n\n${text}` };
  }
  return { output: planNotApprovedText() };
}

export function createExitPlanModeTool(
  deps: ExitPlanModeDeps = {},
): ToolContract<ExitPlanModeInput, FilledPlanInput<ExitPlanModeInput>> {
  return {
    name: EXIT_PLAN_MODE_TOOL,
    description: DESCRIPTION,
    inputSchema: ExitPlanModeInput,
    // It ends plan mode and has the runtime save the plan, so it is no read-only tool;
    // plan mode lets it through as a session control (outside it the policy refuses it, P3).
    readOnly: false,
    destructive: false,
    requiresUserInteraction: true,
    allowedInPlanMode: true,
    userStep: planReviewStep<ExitPlanModeInput>(
      EXIT_PLAN_MODE_TOOL,
      ExitPlanModeInput,
      (outcome) =>
        outcome.type === "cancelled"
          ? { output: planReviewDismissedText(), endTurn: true }
          : { output: planReviewAbortedText(outcome.reason) },
    ),
    summarize: (input) => input.plan.trim().split("\n")[0] ?? "",
    /** Runs after the review: the user's answers are in its input (Q5). */
    async run(input, context) {
      const verdict = verdictOf(input.answers);
      switch (verdict.type) {
        case "approve":
          return approve(input, verdict, context, deps);
        case "feedback":
          return steerFeedback(verdict.text, context);
        case "ask":
          return { output: planQuestionText(verdict.question) };
        case "refuse":
          return { output: planRefusedText(), endTurn: true };
        case "dismiss":
          return { output: planReviewDismissedText(), endTurn: true };
      }
    },
  };
}

export const exitPlanModeTool = createExitPlanModeTool();
