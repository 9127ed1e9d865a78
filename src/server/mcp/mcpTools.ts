import { z } from "zod";
import { askUserQuestionTool } from "../tools/askUserQuestion.ts";
import type { ToolContract, ToolResult } from "../tools/contract.ts";
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

const askTool: ToolContract<unknown> = {
  ...(askUserQuestionTool as ToolContract<unknown>),
  name: MCP_ASK_TOOL,
  description: `${askUserQuestionTool.description}

The questions appear in the user's plangate page. If they leave them unanswered, they continue automatically after a visible countdown and the result says so.`,
};

const todosTool: ToolContract<unknown> = {
  ...(todoWriteTool as ToolContract<unknown>),
  name: MCP_TODOS_TOOL,
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

function reviewResult(outcome: Parameters<typeof verdictOf>[0]): ToolResult {
  const verdict = verdictOf(outcome);
  switch (verdict.type) {
    case "approve":
      return {
        output: `The user approved the plan. Carry it out.${verdict.note ? `\n\nTheir note: ${verdict.note}` : ""}`,
      };
    case "feedback":
      return {
        output: `The user did not approve the plan. Revise it to their feedback and submit it again with review_plan.\n\nTheir feedback:\n\n${verdict.text}`,
      };
    case "refuse":
      return {
        output:
          "The user refused the plan without comment. Do not carry it out; stop and wait for their instructions.",
      };
    case "dismiss":
      return {
        output:
          "The user set the review aside to talk about the plan. Do not carry it out; stop and wait for their message.",
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
  return new ToolRegistry([askTool, reviewTool as ToolContract<unknown>, todosTool]);
}
