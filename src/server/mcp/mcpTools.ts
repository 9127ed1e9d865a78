import type { ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
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
import type { ToolContract, ToolResult, UserStep } from "../tools/contract.ts";
import {
  ExitPlanModeInput,
  type FilledPlanInput,
  planReviewStep,
  verdictOf,
} from "../tools/exitPlanMode.ts";
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
export type McpToolResult = ToolResult;

/** B1: what each tool returns as `structuredContent`, built on the protocol's own schemas. */
export const mcpOutputSchemas = {
  [MCP_ASK_TOOL]: z.object({
    status: z
      .enum(["answered", "cancelled", "withdrawn"])
      .describe(
        "answered: the user answered (maybe not every question); cancelled: the user dismissed them; withdrawn: no answer is coming (the user stopped the turn, or the call was cancelled).",
      ),
    answers: QuestionAnswers,
    continuedAutomatically: z
      .boolean()
      .describe("True when nobody answered and the question continued after its countdown."),
  }),
  [MCP_REVIEW_TOOL]: z.object({
    verdict: z.enum(["approve", "feedback", "question", "refuse", "dismiss"]),
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
    question: z
      .string()
      .optional()
      .describe(
        "V7: the user's question about the plan. No verdict: answer it, then call review_plan again.",
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
      if (decision.type === "modify") return decision;
      // B1: every result of a tool with an output schema carries its structured content.
      const status = outcome.type === "cancelled" ? "cancelled" : "withdrawn";
      const structured = { status, answers: {}, continuedAutomatically: false };
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

/** The plan field of ExitPlanMode's input, as it is (an outside agent has no allowedPrompts). */
const ReviewPlanInput = ExitPlanModeInput.pick({ plan: true }).extend({
  answer: z
    .string()
    .max(20_000)
    .optional()
    .describe(
      "V7: after a `question` verdict, your answer to it, as markdown; the user reads it in plangate above this plan.",
    ),
});
type ReviewPlanInput = z.infer<typeof ReviewPlanInput>;

const REVIEW_DESCRIPTION = `Show your finished plan to the user in plangate and wait for their verdict.

Pass the whole plan as markdown: the goal, the steps in order, the files each step touches, and how the result will be checked. The user approves it, refuses it (maybe with feedback), asks a question about it (call this again with your answer in \`answer\`), or sets the review aside to talk. A plan review never continues on its own.`;

/** V10: an outside agent's modes are its own, so the choice is passed on as a wish. */
const MCP_OPTION_TEXT: Record<PlanApproveOption, string> = {
  default: "",
  edit: " The user chose to have your file edits accepted automatically.",
  build: " The user wants to be asked before each edit.",
  fresh:
    " The user asked you to start from a fresh context: clear or compact your conversation and work from the plan.",
};

/** The result of a review the user answered (Q5: the answers are the call's filled input). */
function reviewResult(input: FilledPlanInput<ReviewPlanInput>): McpToolResult {
  const verdict = verdictOf(input.answers);
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
    case "ask":
      return {
        output: `The user has a question about the plan. They have neither approved nor refused it, so do not carry it out yet. Call review_plan again with your answer, plainly and briefly, in \`answer\` (the user reads it in plangate), so they can decide: with exactly the same plan if your answer changes nothing in it (they will see it marked unchanged), or with a revised plan if it does.\n\n<user-question>\n${verdict.question}\n</user-question>`,
        structured: { verdict: "question", question: verdict.question },
      };
    case "refuse":
      return {
        output:
          "The user refused the plan without comment. Do not carry it out; stop and wait for their instructions.",
        structured: { verdict: "refuse" },
      };
    case "dismiss":
      return dismissedResult();
  }
}

function dismissedResult(): McpToolResult {
  return {
    output:
      "The user set the review aside to talk about the plan. Do not carry it out; stop and wait for their message.",
    structured: { verdict: "dismiss" },
  };
}

/** V7: the agent's answer to the user's question lands in the transcript above the plan it asks about. */
function sayingTheAnswerFirst(
  step: UserStep<ReviewPlanInput, FilledPlanInput<ReviewPlanInput>>,
): UserStep<ReviewPlanInput, FilledPlanInput<ReviewPlanInput>> {
  return {
    ...step,
    request(input, context) {
      const answer = input.answer?.trim();
      if (answer) context.sayToUser?.(answer);
      return step.request(input, context);
    },
  };
}

const reviewTool: ToolContract<ReviewPlanInput, FilledPlanInput<ReviewPlanInput>> = {
  name: MCP_REVIEW_TOOL,
  description: REVIEW_DESCRIPTION,
  inputSchema: ReviewPlanInput,
  readOnly: true,
  destructive: false,
  requiresUserInteraction: true,
  allowedInPlanMode: true,
  userStep: sayingTheAnswerFirst(
    planReviewStep<ReviewPlanInput>(MCP_REVIEW_TOOL, ReviewPlanInput, (outcome) =>
      outcome.type === "cancelled"
        ? dismissedResult()
        : { output: `The plan review ended without a verdict: ${outcome.reason}.`, isError: true },
    ),
  ),
  summarize: (input) => input.plan.trim().split("\n")[0] ?? "",
  run: async (input) => reviewResult(input),
};

export function mcpTools(): ToolRegistry {
  return new ToolRegistry([
    askTool as ToolContract<unknown>,
    reviewTool as ToolContract<unknown>,
    todosTool,
  ]);
}

/** Tools an agent may call as an MCP task: the ones that wait on the user. */
export const TASK_TOOLS: ReadonlySet<string> = new Set([MCP_ASK_TOOL, MCP_REVIEW_TOOL]);

/** The SDK's JSON Schema makers, from the SDK the bridge loaded (see mcpSdk.ts). */
export interface SchemaMakers {
  toJsonSchemaCompat(
    schema: never,
    options: { strictUnions: boolean; pipeStrategy: "input" | "output" },
  ): unknown;
  normalizeObjectSchema(schema: never): unknown;
}

/**
 * MCP tasks: tools/list as the SDK words it, with the tools that wait on the user marked as
 * callable as a task (the SDK marks every tool it did not run as a task itself "forbidden").
 */
export function mcpToolListing(sdk: SchemaMakers, tools: ToolRegistry): ListToolsResult {
  const schema = (zod: unknown, pipeStrategy: "input" | "output") =>
    sdk.toJsonSchemaCompat(sdk.normalizeObjectSchema(zod as never) as never, {
      strictUnions: true,
      pipeStrategy,
    }) as ListToolsResult["tools"][number]["inputSchema"];
  return {
    tools: tools.list().map((tool) => {
      const name = tool.name as keyof typeof mcpOutputSchemas;
      return {
        name,
        description: tool.description,
        inputSchema: schema(tool.inputSchema, "input"),
        annotations: { readOnlyHint: tool.readOnly, destructiveHint: tool.destructive },
        execution: { taskSupport: TASK_TOOLS.has(name) ? "optional" : "forbidden" },
        outputSchema: schema(mcpOutputSchemas[name], "output"),
      };
    }),
  };
}
