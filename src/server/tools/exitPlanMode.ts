import { z } from "zod";
import type {
  AskUserQuestionItem,
  PlanApproveOption,
  PlanComment,
  QuestionAnswer,
} from "../../protocol/index.ts";
import { planReviewDismissedText } from "../interactions/resultText.ts";
import { EXIT_PLAN_MODE_TOOL } from "../permissions/policy.ts";
import { planWithNotes } from "../plan/approvalNotes.ts";
import { applyApproveOption } from "../plan/approveOption.ts";
import { inPlanOrder, planCommentsNote, planCommentsText } from "../plan/planComments.ts";
import { planEditDiff } from "../plan/planEditDiff.ts";
import { writePlanFile } from "../plan/planFile.ts";
import { planContentHash } from "../plan/planHash.ts";
import {
  exitPlanModeOutsidePlanReason,
  planApprovedText,
  planNotApprovedText,
  planRefusedText,
  planReviewAbortedText,
} from "../plan/planTexts.ts";
import type { AskOutcome, ToolContext, ToolContract, ToolResult } from "./contract.ts";

const DESCRIPTION = `Submit your finished plan to the user for review and, if they approve it, leave plan mode.

Call it only in plan mode, once you have explored enough to know what to change and how. Pass the whole plan as markdown in \`plan\`: the goal in a sentence or two, the steps in order, the files each step touches, and how the result will be checked. The user reads exactly this text, so make it complete and easy to scan; headings, lists, tables and code blocks are fine.

The user then approves the plan, refuses it, or sets the review aside to talk. When they approve, plan mode ends and you start carrying the plan out. When they refuse with comments, their comments follow as a message: revise the plan and submit it again. When they refuse without comment or want to talk, wait for their next message.

This is the one way to ask whether a plan is acceptable: do not ask that with AskUserQuestion or in plain text. Use AskUserQuestion before this point only for real choices the plan depends on.

\`allowedPrompts\` may list actions the plan will need (for example running the test suite). They are shown back to you for reference only and grant no permission.`;

export const REVIEW_QUESTION = "Review this implementation plan";
export const APPROVE_LABEL = "Approve";
export const REFUSE_LABEL = "Refuse";

const AllowedPrompt = z.strictObject({
  tool: z.string().min(1).describe("The tool the action needs, e.g. Bash."),
  prompt: z.string().min(1).describe("What the action does, e.g. run the test suite."),
});

const ExitPlanModeInput = z.strictObject({
  plan: z
    .string()
    .max(200_000)
    .refine((plan) => plan.trim() !== "", { message: "the plan may not be empty" })
    .describe("The complete plan, as markdown."),
  allowedPrompts: z
    .array(AllowedPrompt)
    .max(20)
    .optional()
    .describe("Actions the plan will need; echoed back, they grant nothing."),
});
type ExitPlanModeInput = z.infer<typeof ExitPlanModeInput>;

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

/** I3 + X4: asks the one review question, numbered as the session's next plan revision. */
export function askPlanReview(
  context: ToolContext,
  askUser: NonNullable<ToolContext["askUser"]>,
  toolName: string,
  plan: string,
): Promise<AskOutcome> {
  const toolCallId = context.toolCallId ?? "";
  // V8: the revision is named by its text, so an approval can say which text it approves.
  const planRevision = {
    ...(context.planRevision?.(toolCallId) ?? { number: 1 }),
    contentHash: planContentHash(plan),
  };
  return askUser({ toolName, toolCallId, questions: [planReviewQuestion(plan)], planRevision });
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
  | { type: "refuse" }
  | { type: "dismiss" }
  | { type: "aborted"; reason: string };

/** How a plan review's outcome reads: shared with the MCP bridge's review_plan (X1). */
export function verdictOf(outcome: AskOutcome): PlanVerdict {
  if (outcome.type === "cancelled") return { type: "dismiss" };
  if (outcome.type === "aborted") return { type: "aborted", reason: outcome.reason };
  const answer: QuestionAnswer | undefined = outcome.answers[REVIEW_QUESTION];
  const other = answer?.other?.trim() || undefined;
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
  input: ExitPlanModeInput,
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
): ToolContract<ExitPlanModeInput> {
  return {
    name: EXIT_PLAN_MODE_TOOL,
    description: DESCRIPTION,
    inputSchema: ExitPlanModeInput,
    // It ends plan mode and has the runtime save the plan, so it is no read-only tool;
    // plan mode lets it through as a session control.
    readOnly: false,
    destructive: false,
    requiresUserInteraction: true,
    allowedInPlanMode: true,
    summarize: (input) => input.plan.trim().split("\n")[0] ?? "",
    async run(input, context) {
      // A re-run after a restart may find plan mode already ended by the approval it carries.
      if (!context.mode().planEnabled && !context.answeredBeforeRestart) {
        return { output: `${exitPlanModeOutsidePlanReason()}.`, isError: true };
      }
      if (!context.askUser) {
        return { output: "No user can review the plan in this session.", isError: true };
      }
      const outcome = await askPlanReview(
        context,
        context.askUser,
        EXIT_PLAN_MODE_TOOL,
        input.plan,
      );
      const verdict = verdictOf(outcome);
      switch (verdict.type) {
        case "approve":
          return approve(input, verdict, context, deps);
        case "feedback":
          return steerFeedback(verdict.text, context);
        case "refuse":
          return { output: planRefusedText(), endTurn: true };
        case "dismiss":
          return { output: planReviewDismissedText(), endTurn: true };
        case "aborted":
          return { output: planReviewAbortedText(verdict.reason) };
      }
    },
  };
}

export const exitPlanModeTool = createExitPlanModeTool();
