import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AskUserQuestionItem, ExecutionMode } from "../../protocol/index.ts";
import { validateQuestionBatch } from "../interactions/questionService.ts";
import { planReviewDismissedText } from "../interactions/resultText.ts";
import { decidePermission } from "../permissions/decide.ts";
import { planFilePath } from "../plan/planFile.ts";
import { tempDir } from "../testing/helpers.ts";
import type { AskOutcome, ToolContext, ToolResult } from "./contract.ts";
import {
  createExitPlanModeTool,
  type ExitPlanModeInput,
  exitPlanModeTool,
  planReviewQuestion,
} from "./exitPlanMode.ts";

const PLAN = "# Add a cache\n\n1. Read the store\n2. Wrap it\n";
const REVIEW = "Review this implementation plan";
const inPlan: ExecutionMode = { permissionMode: "yolo", planEnabled: true };

interface Recorded {
  asked: AskUserQuestionItem[][];
  modes: boolean[];
  steered: string[];
  approved: Array<{ plan: string; path: string | undefined }>;
}

describe("ExitPlanMode", () => {
  let dir: ReturnType<typeof tempDir>;
  let workspace: string;
  beforeEach(() => {
    dir = tempDir();
    workspace = realpathSync(dir.path);
  });
  afterEach(() => dir.remove());

  function contextAnswering(
    outcome: AskOutcome,
    options: { mode?: ExecutionMode; sessionId?: string; signal?: AbortSignal } = {},
  ) {
    const recorded: Recorded = { asked: [], modes: [], steered: [], approved: [] };
    let mode = options.mode ?? inPlan;
    const context: ToolContext = {
      sessionId: options.sessionId ?? "sess_1",
      toolCallId: "call_7",
      workspace,
      signal: options.signal ?? new AbortController().signal,
      mode: () => mode,
      setPlanMode: (enabled) => {
        recorded.modes.push(enabled);
        mode = { ...mode, planEnabled: enabled };
        return mode;
      },
      steerUserMessage: (text) => recorded.steered.push(text),
      recordPlanApproved: (plan, path) => recorded.approved.push({ plan, path }),
    };
    /** The executor's Q5 path: ask the step's question, fill the answers in, re-validate, run. */
    const review = async (
      input: ExitPlanModeInput,
      tool = exitPlanModeTool,
      runContext: ToolContext = context,
    ): Promise<ToolResult> => {
      const step = tool.userStep!;
      expect(step.asker).toBe("ExitPlanMode");
      recorded.asked.push(step.request(input, runContext).questions);
      const decision = step.decide(input, outcome);
      if (decision.type === "deny") return decision.result;
      const filled = step.validateFilled(decision.input);
      if (!filled.ok) throw new Error(filled.message);
      return tool.run(filled.input, runContext);
    };
    return { context, recorded, review };
  }
  const answered = (labels: string[], other?: string): AskOutcome => ({
    type: "answered",
    auto: false,
    answers: {
      "Review this implementation plan": other === undefined ? { labels } : { labels, other },
    },
  });

  it("[Q5][P3] always asks the user itself, and only in plan mode", () => {
    expect(exitPlanModeTool.requiresUserInteraction).toBe(true);
    expect(exitPlanModeTool.allowedInPlanMode).toBe(true);
    expect(decidePermission(exitPlanModeTool, { plan: PLAN }, inPlan)).toEqual({
      type: "ask",
      by: "tool",
    });
    expect(
      decidePermission(
        exitPlanModeTool,
        { plan: PLAN },
        { permissionMode: "yolo", planEnabled: false },
      ),
    ).toMatchObject({
      type: "deny",
      reason: expect.stringMatching(/only works while plan mode is on/),
    });
  });

  it("[P7] takes a non-empty markdown plan and optional allowedPrompts", () => {
    const schema = exitPlanModeTool.inputSchema;
    expect(schema.safeParse({ plan: PLAN }).success).toBe(true);
    expect(
      schema.safeParse({ plan: PLAN, allowedPrompts: [{ tool: "Bash", prompt: "run the tests" }] })
        .success,
    ).toBe(true);
    expect(schema.safeParse({ plan: "  \n" }).success).toBe(false);
    expect(schema.safeParse({}).success).toBe(false);
    expect(schema.safeParse({ plan: PLAN, approved: true }).success).toBe(false);
  });

  it("[I3] asks one review question: the plan as detail, Approve and Refuse with descriptions, plan-review intent naming Approve", async () => {
    const { recorded, review } = contextAnswering({ type: "cancelled" });
    await review({ plan: PLAN });
    expect(recorded.asked).toEqual([[planReviewQuestion(PLAN)]]);
    const [question] = recorded.asked[0]!;
    expect(question).toMatchObject({
      question: "Review this implementation plan",
      header: "Plan",
      detail: PLAN,
      multiSelect: false,
      intent: { kind: "plan-review", approve: "Approve" },
    });
    expect(question!.options.map((o) => o.label)).toEqual(["Approve", "Refuse"]);
    for (const option of question!.options) expect(option.description).toBeTruthy();
    // I2: the question passes the asker's own validation.
    expect(() => validateQuestionBatch([question])).not.toThrow();
  });

  it("[P8] approve: writes the plan file, leaves plan mode, records plan.approved and hands the model the whole plan", async () => {
    const { recorded, review } = contextAnswering(answered(["Approve"]), {
      sessionId: "sess/a:b",
    });
    const result = await review({
      plan: PLAN,
      allowedPrompts: [{ tool: "Bash", prompt: "run the tests" }],
    });
    const file = planFilePath(workspace, "sess/a:b");
    expect(file).toBe(join(workspace, ".zcode", "plans", "plan-sess-a-b.md"));
    expect(readFileSync(file, "utf8")).toBe(PLAN);
    expect(recorded.modes).toEqual([false]);
    expect(recorded.approved).toEqual([
      { plan: PLAN, path: join(".zcode", "plans", "plan-sess-a-b.md") },
    ]);
    expect(result.isError).toBeUndefined();
    expect(result.endTurn).toBeUndefined();
    expect(result.output).toMatch(/^The user approved your plan\. Plan mode is off/);
    expect(result.output).toContain("saved to .zcode/plans/plan-sess-a-b.md");
    expect(result.output).toContain("- Bash: run the tests");
    expect(result.output).toMatch(/granted no permission/);
    expect(result.output.endsWith(`## Approved Plan:\n${PLAN}`)).toBe(true);
  });

  it("[P8] a plan file that cannot be written is logged and the exit goes on", async () => {
    mkdirSync(join(workspace, ".zcode"));
    writeFileSync(join(workspace, ".zcode", "plans"), "a file where the folder should be");
    const logged: string[] = [];
    const tool = createExitPlanModeTool({ logError: (message) => logged.push(message) });
    const { recorded, review } = contextAnswering(answered(["Approve"]));
    const result = await review({ plan: PLAN }, tool);
    expect(logged).toEqual(["session sess_1: could not save the approved plan"]);
    expect(recorded.modes).toEqual([false]);
    expect(recorded.approved).toEqual([{ plan: PLAN, path: undefined }]);
    expect(result.output).toMatch(/could not be saved to a file, but it is approved/);
    expect(result.output).toContain(`## Approved Plan:\n${PLAN}`);
  });

  it("[P8] a cancelled turn stops the exit while the plan is being written", async () => {
    const controller = new AbortController();
    controller.abort("stopped");
    const logged: string[] = [];
    const tool = createExitPlanModeTool({ logError: (message) => logged.push(message) });
    const { recorded, review } = contextAnswering(answered(["Approve"]), {
      signal: controller.signal,
    });
    await expect(review({ plan: PLAN }, tool)).rejects.toBeDefined();
    expect(logged).toEqual([]);
    expect(recorded.modes).toEqual([]);
    expect(existsSync(planFilePath(workspace, "sess_1"))).toBe(false);
  });

  it("[P9] refuse with feedback: the result says only 'not approved', the feedback is steered in as the user's message, plan stays on", async () => {
    const { recorded, review } = contextAnswering(answered(["Refuse"], "  Use Redis instead.  "));
    const result = await review({ plan: PLAN });
    expect(result).toEqual({ output: "The user did not approve the plan." });
    expect(recorded.steered).toEqual(["Use Redis instead."]);
    expect(recorded.modes).toEqual([]);
    expect(existsSync(planFilePath(workspace, "sess_1"))).toBe(false);
  });

  it("[P9] feedback that cannot be steered still reaches the model, in the result", async () => {
    const { context, review } = contextAnswering(answered(["Refuse"], "Smaller steps"));
    const result = await review({ plan: PLAN }, exitPlanModeTool, {
      ...context,
      steerUserMessage: undefined,
    });
    expect(result.output).toBe(
      "The user did not approve the plan. Their feedback:\n\nSmaller steps",
    );
  });

  it("[V7] a question about the plan: no verdict, the turn goes on, the model is told to answer and submit again, nothing is steered or saved", async () => {
    const { recorded, review } = contextAnswering({
      type: "answered",
      auto: false,
      answers: {
        "Review this implementation plan": {
          labels: [],
          other: "  Why wrap the store?  ",
          review: { ask: true },
        },
      },
    });
    const result = await review({ plan: PLAN });
    expect(result.endTurn).toBeUndefined();
    expect(result.isError).toBeUndefined();
    expect(result.output).toMatch(
      /^The user has a question about your plan\. They have neither approved nor refused it/,
    );
    expect(result.output).toMatch(
      /Answer the question in your reply.*call ExitPlanMode again.*exactly the same plan text/,
    );
    expect(result.output).toContain("<user-question>\nWhy wrap the store?\n</user-question>");
    expect(recorded).toEqual({ asked: [expect.anything()], modes: [], steered: [], approved: [] });
    expect(existsSync(planFilePath(workspace, "sess_1"))).toBe(false);
  });

  it("[P10] refuse without feedback ends the turn; no plan file, plan stays on", async () => {
    const { recorded, review } = contextAnswering(answered(["Refuse"]));
    const result = await review({ plan: PLAN });
    expect(result.endTurn).toBe(true);
    expect(result.output).toMatch(/refused the plan without comment.*Stay in plan mode/);
    expect(recorded).toEqual({ asked: [expect.anything()], modes: [], steered: [], approved: [] });
    expect(existsSync(planFilePath(workspace, "sess_1"))).toBe(false);
  });

  it("[I7] chat about it (cancelled): stay in plan and wait; the turn ends", async () => {
    const { recorded, review } = contextAnswering({ type: "cancelled" });
    const result = await review({ plan: PLAN });
    expect(result).toEqual({ output: planReviewDismissedText(), endTurn: true });
    expect(recorded.modes).toEqual([]);
  });

  it("[Q8] a withdrawn review keeps its own text and changes nothing", async () => {
    const { recorded, review } = contextAnswering({
      type: "aborted",
      reason: "the user stopped the turn",
    });
    const result = await review({ plan: PLAN });
    expect(result.output).toMatch(
      /withdrawn before the user decided \(the user stopped the turn\)/,
    );
    expect(result.output).not.toBe(planReviewDismissedText());
    expect(recorded.modes).toEqual([]);
  });

  it("[Q3][Q5] the handler's input must carry answers that fit the review question", () => {
    const step = exitPlanModeTool.userStep!;
    expect(step.validateFilled({ plan: PLAN })).toEqual({
      ok: false,
      message: expect.stringMatching(/user's answers/),
    });
    expect(
      step.validateFilled({ plan: PLAN, answers: { [REVIEW]: { labels: ["Ship it"] } } }),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/Invalid ExitPlanMode answers/) });
    expect(step.validateFilled({ plan: PLAN, answers: {} })).toEqual({
      ok: true,
      input: { plan: PLAN, answers: {} },
    });
    // The model may not write the answers itself (Q3).
    expect(exitPlanModeTool.inputSchema.safeParse({ plan: PLAN, answers: {} }).success).toBe(false);
  });
});
