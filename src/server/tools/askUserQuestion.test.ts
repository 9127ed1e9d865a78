import { z } from "zod";
import type { StoredEntry } from "../../protocol/index.ts";
import {
  colourQuestion,
  createHarness,
  DEADLINE_MS,
  featuresQuestion,
  flush,
  planReviewQuestion,
} from "../interactions/registryHarness.ts";
import { USER_ANSWERS_REQUIRED } from "../interactions/resultText.ts";
import { decidePermission } from "../permissions/decide.ts";
import { CallSteps } from "../sessions/callSteps.ts";
import { ToolExecutor } from "../sessions/toolExecutor.ts";
import {
  AskUserQuestionInput,
  askUserQuestionStep,
  askUserQuestionTool,
  FilledAskUserQuestionInput,
  validateFilledInput,
} from "./askUserQuestion.ts";
import type { ToolContract } from "./contract.ts";
import { ToolRegistry } from "./registry.ts";

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
    ["a blank question", { questions: [{ ...colourQuestion, question: "   " }] }],
    ["a blank header", { questions: [{ ...colourQuestion, header: " " }] }],
    [
      "a blank option label",
      { questions: [{ ...colourQuestion, options: [{ label: "Red" }, { label: " \t" }] }] },
    ],
    [
      "a label made of zero-width spaces",
      {
        questions: [{ ...colourQuestion, options: [{ label: "Red" }, { label: "\u200b\u200b" }] }],
      },
    ],
    [
      "labels that differ only in a zero-width space",
      {
        questions: [
          { ...colourQuestion, options: [{ label: "Approve" }, { label: "Approve\u200b" }] },
        ],
      },
    ],
    [
      "a header reversed by a bidi override (shows as Approve)",
      { questions: [{ ...colourQuestion, header: "\u202eevorppA" }] },
    ],
    [
      "an option description with an isolate control",
      {
        questions: [
          {
            ...colourQuestion,
            options: [
              { label: "Red", description: "safe \u2067lla eteled\u2069" },
              { label: "Blue" },
            ],
          },
        ],
      },
    ],
    [
      "five questions",
      { questions: [1, 2, 3, 4, 5].map((n) => ({ ...colourQuestion, question: `${n}?` })) },
    ],
  ])("[Q1] the model-facing schema rejects %s", (_name, value) => {
    expect(AskUserQuestionInput.safeParse(value).success).toBe(false);
  });

  it("[Q1] text that needs format characters still passes: an emoji joined with U+200D, Arabic with a right-to-left mark", () => {
    const options = [
      { label: "👩\u200d💻 Developer" },
      { label: "نعم\u200f" },
      { label: "数据库" },
    ];
    const parsed = AskUserQuestionInput.safeParse({ questions: [{ ...colourQuestion, options }] });
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
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

/** The real executor, policy and registry; a spy records what the handler ran with. */
function executorHarness(options: { log?: StoredEntry[] } = {}) {
  const h = createHarness();
  const earlier = options.log ?? [];
  const ran: unknown[] = [];
  const spied: ToolContract<AskUserQuestionInput, FilledAskUserQuestionInput> = {
    ...askUserQuestionTool,
    async run(filled, context) {
      ran.push({ input: filled, entriesBefore: h.kinds("sess_1") });
      return askUserQuestionTool.run(filled, context);
    },
  };
  const executor = new ToolExecutor({
    tools: new ToolRegistry([spied as ToolContract<unknown>]),
    interactions: h.registry,
    permissions: decidePermission,
    workspace: "/tmp",
    // What the session's projection answers: the step resolved in the log, read afresh.
    stepOf: (sessionId, callId) =>
      CallSteps.fromEntries([...earlier, ...h.stored(sessionId)]).of(callId),
  });
  const call = (callId = "call_1", callInput: unknown = input) =>
    executor.run(
      "sess_1",
      { callId, name: "AskUserQuestion", input: callInput },
      () => ({ permissionMode: "yolo", planEnabled: false }),
      new AbortController().signal,
    );
  return { h, ran, call };
}

describe("AskUserQuestion through the executor (Q5's real path)", () => {
  it("[Q5][Q3] the answer becomes the tool's input and the handler runs after it", async () => {
    const { h, ran, call } = executorHarness();
    const running = call();
    await flush();
    expect(ran).toEqual([]);
    const answers = {
      [colourQuestion.question]: { labels: ["Red"] },
      [featuresQuestion.question]: { labels: ["Export"], other: "CSV only" },
    };
    expect(h.registry.answer("int_1", answers)).toEqual({ ok: true });
    const result = await running;
    expect(ran).toEqual([
      {
        input: { ...input, answers },
        entriesBefore: ["interaction.requested", "interaction.countdown", "interaction.resolved"],
      },
    ]);
    expect(result.isError).toBeFalsy();
    expect(result.output).toMatch(/answered your questions/);
    expect(result.output).toContain(`(in the user's own words) "CSV only"`);
  });

  it("[Q4] reports skipped questions, and an expired countdown gives the none-answered text", async () => {
    const some = executorHarness();
    const running = some.call();
    await flush();
    some.h.registry.answer("int_1", { [colourQuestion.question]: { labels: ["Red"] } });
    expect((await running).output).toContain("skipped 1 question");

    const none = executorHarness();
    const waiting = none.call();
    await flush();
    none.h.clock.advance(DEADLINE_MS);
    expect((await waiting).output).toMatch(/not a refusal/);
    expect(none.ran).toEqual([expect.objectContaining({ input: { ...input, answers: {} } })]);
  });

  it("[Q8] a dismissal is the call's result and the handler never runs", async () => {
    const { h, ran, call } = executorHarness();
    const running = call();
    await flush();
    h.registry.cancel("int_1");
    const result = await running;
    expect(result.output).toMatch(/dismissed/);
    expect(ran).toEqual([]);
  });

  it("[Q5] a filled input is re-validated before the handler runs", async () => {
    const { h, ran } = executorHarness();
    // A host whose modify decision carries answers that do not fit the batch.
    const lying: ToolContract<AskUserQuestionInput, FilledAskUserQuestionInput> = {
      ...askUserQuestionTool,
      userStep: {
        ...askUserQuestionStep,
        decide: (asked) => ({
          type: "modify",
          input: { ...asked, answers: { [colourQuestion.question]: { labels: ["Green"] } } },
        }),
      },
      run: async (filled) => {
        ran.push(filled);
        return { output: "ran" };
      },
    };
    const executor = new ToolExecutor({
      tools: new ToolRegistry([lying as ToolContract<unknown>]),
      interactions: h.registry,
      permissions: decidePermission,
      workspace: "/tmp",
    });
    const running = executor.run(
      "sess_1",
      { callId: "call_1", name: "AskUserQuestion", input },
      () => ({ permissionMode: "yolo", planEnabled: false }),
      new AbortController().signal,
    );
    await flush();
    h.registry.answer("int_1", {});
    const result = await running;
    expect(result).toEqual({
      output: expect.stringMatching(/Invalid AskUserQuestion answers/),
      isError: true,
    });
    expect(ran).toEqual([]);
  });

  it("[Q3] the handler's own input must carry answers; the model may not write them", async () => {
    const { ran, call } = executorHarness();
    const result = await call("call_1", { ...input, answers: {} });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/invalid/);
    expect(ran).toEqual([]);
  });

  it("[A7][Q5] after a restart, the call re-runs from its logged answer (its filled input) without asking again", async () => {
    const before = executorHarness();
    const running = before.call("call_7");
    await flush();
    const answers = { [colourQuestion.question]: { labels: ["Red"] } };
    before.h.registry.answer("int_1", answers);
    await running;
    // The process died before the result was stored: a fresh registry and executor on the log.
    const after = executorHarness({ log: before.h.stored("sess_1") });
    after.h.registry.restore("sess_1", before.h.stored("sess_1"));
    const result = await after.call("call_7");
    expect(after.h.kinds("sess_1")).toEqual([]);
    expect(after.ran).toEqual([expect.objectContaining({ input: { ...input, answers } })]);
    expect(result.output).toContain("answered 1 of 2");
  });
});
