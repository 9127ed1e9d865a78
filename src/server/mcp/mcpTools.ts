import { z } from "zod";
import {
  type PlanApproveOption,
  PlanComments,
  QuestionAnswers,
  TodoItem,
} from "../../protocol/index.ts";
import {
  type AskUserQuestionInput,
  askUserQuestionStep,
  askUserQuestionTool,
  type FilledAskUserQuestionInput,
} from "../tools/askUserQuestion.ts";
import type { AskOutcome, ToolContract, ToolResult } from "../tools/contract.ts";
import { askPlanReview, verdictOf } from "../tools/exitPlanMode.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { todoWriteTool } from "../tools/todoWrite.ts";

/**
 * X1: what an agent outside plangate can do over MCP. Each tool is one of plangate's own
 * surfaces under an MCP-style name: the same checks, cards, countdown and result texts.
 */
export const MCP_ASK_TOOL = "ask_user_question";
export const MCP_REVIEW_TOOL = "review_plan";
export const MCP_TODOS_TOOL = "write_todos";

/** B1: a result with the structured content its tool's output schema describes. */
export interface McpToolResult extends ToolResult {
  structured?: Record<string, unknown>;
}

/** B1: what each tool returns as `structuredContent`, built on the protocol's own schemas. */
export const mcpOutputSchemas = {
  [MCP_ASK_TOOL]: z.object({
    status: z
      .enum(["answered", "cancelled"])
      .describe("answered: the user answered (maybe not every question); cancelled: dismissed."),
    answers: QuestionAnswers,
    continuedAutomatically: z
      .boolean()
      .describe("True when nobody answered and the question continued after its countdown."),
  }),
  [MCP_REVIEW_TOOL]: z.object({
    verdict: z.enum(["approve", "feedback", "refuse", "dismiss"]),
    note: z.string().optional().describe("The user's note with an approval."),
    option: z
      .enum(["default", "edit", "build", "fresh"])
      .optional()
      .describe(
        "V5, with an approval: how the user wants it carried out. default: as before planning; edit: accept file edits without asking; build: ask before each edit; fresh: start from a fresh context holding the plan.",
      ),
    feedback: z
      .string()
      .optional()
      .describe("What the user wants changed: their comments (when any) and overall feedback."),
    comments: z
      .optional(PlanComments)
      .describe(
        "V2: the user's comments in plan order, each anchored by the quoted text, the heading path above it and its line numbers in the submitted plan.",
      ),
    editedPlan: z
      .string()
      .optional()
      .describe("V6: the plan as the user edited it before approving; carry out this version."),
  }),
  [MCP_TODOS_TOOL]: z.object({
    todos: z.array(TodoItem).describe("The list as it now stands."),
  }),
};

// An MCP agent has no plan-mode tools: it submits plans with review_plan.
const ASK_DESCRIPTION = `${askUserQuestionTool.description
  .split("\n")
  .filter((line) => !/PlanMode/.test(line))
  .join("\n")}
- Never use this to ask whether a plan is acceptable: submit the plan with ${MCP_REVIEW_TOOL} instead.

The questions appear in the user's plangate page. If they leave them unanswered, they continue automatically after a visible countdown and the result says so.`;

const askTool: ToolContract<AskUserQuestionInput, FilledAskUserQuestionInput> = {
  ...askUserQuestionTool,
  name: MCP_ASK_TOOL,
  description: ASK_DESCRIPTION,
  userStep: {
    ...askUserQuestionStep,
    decide(input, outcome) {
      const decision = askUserQuestionStep.decide(input, outcome);
      if (decision.type === "modify" || outcome.type !== "cancelled") return decision;
      const structured = { status: "cancelled", answers: {}, continuedAutomatically: false };
      return { type: "deny", result: { ...decision.result, structured } as McpToolResult };
    },
  },
  async run(input, context): Promise<McpToolResult> {
    const result = await askUserQuestionTool.run(input, context);
    if (result.isError) return result;
    const auto = context.answeredAutomatically ?? false;
    return {
      ...result,
      structured: { status: "answered", answers: input.answers, continuedAutomatically: auto },
    };
  },
};

const todosTool: ToolContract<unknown> = {
  ...(todoWriteTool as ToolContract<unknown>),
  name: MCP_TODOS_TOOL,
  async run(input, context): Promise<McpToolResult> {
    const result = await todoWriteTool.run(input as never, context);
    if (result.isError) return result;
    return { ...result, structured: { todos: (input as { todos: TodoItem[] }).todos } };
  },
};

const ReviewPlanInput = z.strictObject({
  plan: z
    .string()
    .max(200_000)
    .refine((plan) => plan.trim() !== "", { message: "the plan may not be empty" })
    .describe("The complete plan, as markdown."),
});
type ReviewPlanInput = z.infer<typeof ReviewPlanInput>;

const REVIEW_DESCRIPTION = `Show your finished plan to the user in plangate and wait for their verdict.

Pass the whole plan as markdown: the goal, the steps in order, the files each step touches, and how the result will be checked. The user approves it, refuses it (maybe with feedback), or sets the review aside to talk. A plan review never continues on its own.`;

/** V10: an outside agent's modes are its own, so the choice is passed on as a wish. */
const MCP_OPTION_TEXT: Record<PlanApproveOption, string> = {
  default: "",
  edit: " The user chose to have your file edits accepted automatically.",
  build: " The user wants to be asked before each edit.",
  fresh:
    " The user asked you to start from a fresh context: clear or compact your conversation and work from the plan.",
};

function reviewResult(outcome: AskOutcome): McpToolResult {
  const verdict = verdictOf(outcome);
  switch (verdict.type) {
    case "approve":
      return {
        output: `The user approved the plan. Carry it out.${MCP_OPTION_TEXT[verdict.option]}${verdict.note ? `\n\nTheir note: ${verdict.note}` : ""}${verdict.editedPlan === undefined ? "" : `\n\nThey edited it first; carry out their version:\n\n${verdict.editedPlan}`}`,
        structured: {
          verdict: "approve",
          option: verdict.option,
          ...(verdict.note ? { note: verdict.note } : {}),
          ...(verdict.editedPlan === undefined ? {} : { editedPlan: verdict.editedPlan }),
          ...(verdict.comments === undefined ? {} : { comments: verdict.comments }),
        },
      };
    case "feedback":
      return {
        output: `The user did not approve the plan. Revise it to their feedback and submit it again with review_plan.\n\nTheir feedback:\n\n${verdict.text}`,
        structured: {
          verdict: "feedback",
          feedback: verdict.text,
          ...(verdict.comments === undefined ? {} : { comments: verdict.comments }),
        },
      };
    case "refuse":
      return {
        output:
          "The user refused the plan without comment. Do not carry it out; stop and wait for their instructions.",
        structured: { verdict: "refuse" },
      };
    case "dismiss":
      return {
        output:
          "The user set the review aside to talk about the plan. Do not carry it out; stop and wait for their message.",
        structured: { verdict: "dismiss" },
      };
    case "aborted":
      return {
        output: `The plan review ended without a verdict: ${verdict.reason}.`,
        isError: true,
      };
  }
}

const reviewTool: ToolContract<ReviewPlanInput> = {
  name: MCP_REVIEW_TOOL,
  description: REVIEW_DESCRIPTION,
  inputSchema: ReviewPlanInput,
  readOnly: true,
  destructive: false,
  requiresUserInteraction: true,
  allowedInPlanMode: true,
  summarize: (input) => input.plan.trim().split("\n")[0] ?? "",
  async run(input, context) {
    if (!context.askUser) return { output: "No user can review the plan here.", isError: true };
    return reviewResult(await askPlanReview(context, context.askUser, MCP_REVIEW_TOOL, input.plan));
  },
};

export function mcpTools(): ToolRegistry {
  return new ToolRegistry([
    askTool as ToolContract<unknown>,
    reviewTool as ToolContract<unknown>,
    todosTool,
  ]);
}
