import { z } from "zod";
import type { AskUserQuestionItem } from "../../protocol/index.ts";
import {
  colourQuestion,
  createHarness,
  DEADLINE_MS,
  featuresQuestion,
  flush,
  planReviewQuestion,
} from "../interactions/registryHarness.ts";
import { USER_ANSWERS_REQUIRED } from "../interactions/resultText.ts";
import {
  AskUserQuestionInput,
  askUserQuestionTool,
  FilledAskUserQuestionInput,
  validateFilledInput,
} from "./askUserQuestion.ts";
import type { AskOutcome, ToolContext } from "./contract.ts";

function contextAnswering(outcome: AskOutcome, asked: AskUserQuestionItem[][] = []): ToolContext {
  return {
    sessionId: "sess_1",
    workspace: "/tmp",
    signal: new AbortController().signal,
    mode: () => ({ permissionMode: "build", planEnabled: false }),
    askUser: async (request) => {
      asked.push(request.questions);
      return outcome;
    },
  };
}

const input = { questions: [colourQuestion, featuresQuestion] };

describe("AskUserQuestion contract", () => {
  it("[Q5] always needs the user, is allowed in plan mode and changes nothing", () => {
    expect(askUserQuestionTool.name).toBe("AskUserQuestion");
    expect(askUserQuestionTool.requiresUserInteraction).toBe(true);
    expect(askUserQuestionTool.allowedInPlanMode).toBe(true);
    expect(askUserQuestionTool.readOnly).toBe(true);
    expect(askUserQuestionTool.destructive).toBe(false);
  });

  it("[Q2] the description narrows use and points plan questions elsewhere", () => {
    const description = askUserQuestionTool.description;
    expect(description).toMatch(/the user's to make/);
    expect(description).toContain("(Recommended)");
    expect(description).toMatch(/put it first/);
    expect(description).toContain("ExitPlanMode");
    expect(description).toContain("EnterPlanMode");
  });

  it("[Q1] the model-facing schema accepts a batch and exports as JSON Schema", () => {
    expect(AskUserQuestionInput.safeParse(input).success).toBe(true);
    const schema = z.toJSONSchema(AskUserQuestionInput) as { properties: object };
    expect(Object.keys(schema.properties)).toEqual(["questions"]);
  });

  it.each<[string, unknown]>([
    ["an unknown top-level field", { ...input, urgent: true }],
    ["answers written by the model", { ...input, answers: {} }],
    ["an intent, which only server-side askers set", { questions: [planReviewQuestion] }],
    ["a header over 16 characters", { questions: [{ ...colourQuestion, header: "x".repeat(17) }] }],
    [
      "five options",
      {
        questions: [
          { ...colourQuestion, options: ["a", "b", "c", "d", "e"].map((label) => ({ label })) },
        ],
      },
    ],
    [
      "duplicate labels",
      { questions: [{ ...colourQuestion, options: [{ label: "a" }, { label: "a" }] }] },
    ],
    ["duplicate question texts", { questions: [colourQuestion, colourQuestion] }],
    [
      "five questions",
      { questions: [1, 2, 3, 4, 5].map((n) => ({ ...colourQuestion, question: `${n}?` })) },
    ],
  ])("[Q1] the model-facing schema rejects %s", (_name, value) => {
    expect(AskUserQuestionInput.safeParse(value).success).toBe(false);
  });
});

describe("filled input (the approval step's answers)", () => {
  it("[Q3] requires answers, with an error saying user answers are required", () => {
    expect(FilledAskUserQuestionInput.safeParse(input).success).toBe(false);
    expect(validateFilledInput(input)).toEqual({ ok: false, message: USER_ANSWERS_REQUIRED });
    expect(USER_ANSWERS_REQUIRED).toMatch(/user's answers/);
  });

  it("[Q3] accepts {} as nothing answered", () => {
    expect(validateFilledInput({ ...input, answers: {} })).toEqual({
      ok: true,
      input: { ...input, answers: {} },
    });
  });

  it.each<[string, unknown]>([
    ["a blank answer", { [colourQuestion.question]: { labels: [] } }],
    ["blank custom text", { [colourQuestion.question]: { labels: [], other: "  " } }],
    ["a label never offered", { [colourQuestion.question]: { labels: ["Green"] } }],
    [
      "two picks on a single-select question",
      { [colourQuestion.question]: { labels: ["Red"], other: "x" } },
    ],
    ["an answer to a question not asked", { "Why?": { labels: ["Red"] } }],
  ])("[Q3][Q5] rejects %s", (_name, answers) => {
    const result = validateFilledInput({ ...input, answers });
    expect(result.ok).toBe(false);
  });
});

describe("AskUserQuestion handler", () => {
  it("[Q4] reports every answer when all were answered", async () => {
    const asked: AskUserQuestionItem[][] = [];
    const answers = {
      [colourQuestion.question]: { labels: ["Red"] },
      [featuresQuestion.question]: { labels: ["Export"], other: "CSV only" },
    };
    const result = await askUserQuestionTool.run(
      input,
      contextAnswering({ type: "answered", answers, auto: false }, asked),
    );
    expect(asked).toEqual([input.questions]);
    expect(result.isError).toBeFalsy();
    expect(result.output).toMatch(/answered your questions/);
    expect(result.output).toContain("Red");
    expect(result.output).toContain(`(in the user's own words) "CSV only"`);
  });

  it("[Q4] reports skipped questions and the none-answered case", async () => {
    const some = await askUserQuestionTool.run(
      input,
      contextAnswering({
        type: "answered",
        answers: { [colourQuestion.question]: { labels: ["Red"] } },
        auto: false,
      }),
    );
    expect(some.output).toContain("skipped 1 question");
    const none = await askUserQuestionTool.run(
      input,
      contextAnswering({ type: "answered", answers: {}, auto: true }),
    );
    expect(none.output).toMatch(/not a refusal/);
  });

  it("[Q8] dismissal and abort reach the model differently", async () => {
    const cancelled = await askUserQuestionTool.run(input, contextAnswering({ type: "cancelled" }));
    const aborted = await askUserQuestionTool.run(
      input,
      contextAnswering({ type: "aborted", reason: "turn cancelled" }),
    );
    expect(cancelled.output).toMatch(/dismissed/);
    expect(aborted.output).toMatch(/no user reply is coming/i);
    expect(cancelled.output).not.toBe(aborted.output);
  });

  it("[Q5] runs from a filled input without asking again", async () => {
    const asked: AskUserQuestionItem[][] = [];
    const result = await askUserQuestionTool.run(
      { ...input, answers: { [colourQuestion.question]: { labels: ["Red"] } } },
      contextAnswering({ type: "cancelled" }, asked),
    );
    expect(asked).toEqual([]);
    expect(result.output).toContain("answered 1 of 2");
  });

  it("[A7] passes its tool call id on, so a restarted server can adopt the question", async () => {
    const ids: string[] = [];
    const context: ToolContext = {
      ...contextAnswering({ type: "cancelled" }),
      toolCallId: "call_42",
      askUser: async (request) => {
        ids.push(request.toolCallId);
        return { type: "cancelled" };
      },
    };
    await askUserQuestionTool.run(input, context);
    expect(ids).toEqual(["call_42"]);
  });

  it("[A3] through the real registry, an expired countdown yields the none-answered text", async () => {
    const h = createHarness();
    const context: ToolContext = {
      ...contextAnswering({ type: "cancelled" }),
      askUser: (request) =>
        h.registry.askQuestions("sess_1", request, new AbortController().signal),
    };
    const running = askUserQuestionTool.run(input, context);
    await flush();
    expect(h.kinds("sess_1")).toEqual(["interaction.requested", "interaction.countdown"]);
    h.clock.advance(DEADLINE_MS);
    const result = await running;
    expect(result.output).toMatch(/not a refusal/);
  });
});
