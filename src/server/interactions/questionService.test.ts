import {
  type AskUserQuestionItem,
  AskUserQuestionItems,
  ClientFrame,
  ServerFrame,
  SessionEntry,
} from "../../protocol/index.ts";
import {
  QuestionRequestError,
  UserQuestionService,
  validateQuestionBatch,
} from "./questionService.ts";
import { colourQuestion, createHarness, planReviewQuestion } from "./registryHarness.ts";

const option = (label: string) => ({ label, description: `${label} means something` });

describe("question batch contract", () => {
  it("[Q1] accepts one to four well-formed questions", () => {
    const four = [1, 2, 3, 4].map((n) => ({ ...colourQuestion, question: `Question ${n}?` }));
    expect(AskUserQuestionItems.safeParse([colourQuestion]).success).toBe(true);
    expect(AskUserQuestionItems.safeParse(four).success).toBe(true);
    expect(() => validateQuestionBatch(four)).not.toThrow();
  });

  it.each<[string, unknown]>([
    ["an empty batch", []],
    [
      "five questions",
      [1, 2, 3, 4, 5].map((n) => ({ ...colourQuestion, question: `Question ${n}?` })),
    ],
    ["a header longer than 16 characters", [{ ...colourQuestion, header: "A header too long" }]],
    ["a single option", [{ ...colourQuestion, options: [option("Only")] }]],
    ["five options", [{ ...colourQuestion, options: ["A", "B", "C", "D", "E"].map(option) }]],
    ["duplicate labels", [{ ...colourQuestion, options: [option("Same"), option("Same")] }]],
    ["an empty question text", [{ ...colourQuestion, question: "" }]],
    ["an unknown field on a question", [{ ...colourQuestion, urgent: true }]],
    [
      "an unknown field on an option",
      [{ ...colourQuestion, options: [{ label: "A", icon: "x" }, option("B")] }],
    ],
    ["a missing multiSelect", [{ ...colourQuestion, multiSelect: undefined }]],
    ["duplicate question texts", [colourQuestion, colourQuestion]],
  ])("[Q1] rejects %s", (_name, batch) => {
    expect(AskUserQuestionItems.safeParse(batch).success).toBe(false);
    expect(() => validateQuestionBatch(batch)).toThrow(
      expect.objectContaining({ code: "BAD_QUESTIONS" }),
    );
  });
});

describe("presentation intent on the wire", () => {
  const request = {
    kind: "question",
    interactionId: "int_1",
    sessionId: "sess_1",
    toolName: "ExitPlanMode",
    toolCallId: "call_1",
    questions: [planReviewQuestion],
    createdAt: 1,
  };

  it("[I1] an interaction.requested entry with a plan-review intent parses", () => {
    const entry = { kind: "interaction.requested", request };
    expect(SessionEntry.safeParse(entry).success).toBe(true);
    const frame = { type: "event", sessionId: "sess_1", seq: 1, at: 1, entry };
    expect(ServerFrame.safeParse(frame).success).toBe(true);
  });

  it("[I1] an unknown intent kind is rejected, never guessed at", () => {
    const unknownIntent = { ...planReviewQuestion, intent: { kind: "poll", approve: "Approve" } };
    const entry = {
      kind: "interaction.requested",
      request: { ...request, questions: [unknownIntent] },
    };
    expect(SessionEntry.safeParse(entry).success).toBe(false);
    expect(
      ServerFrame.safeParse({ type: "event", sessionId: "sess_1", seq: 1, at: 1, entry }).success,
    ).toBe(false);
    expect(AskUserQuestionItems.safeParse([unknownIntent]).success).toBe(false);
  });

  it("[I1] a client frame with an unknown type or field is rejected", () => {
    expect(ClientFrame.safeParse({ type: "interaction.review", interactionId: "x" }).success).toBe(
      false,
    );
    expect(
      ClientFrame.safeParse({ type: "interaction.answer", interactionId: "x", answers: {} })
        .success,
    ).toBe(true);
    expect(
      ClientFrame.safeParse({
        type: "interaction.answer",
        interactionId: "x",
        answers: {},
        intent: { kind: "poll" },
      }).success,
    ).toBe(false);
  });
});

describe("UserQuestionService.ask", () => {
  const noIntentLabel: AskUserQuestionItem = {
    ...planReviewQuestion,
    intent: { kind: "plan-review", approve: "Ship it" },
  };
  const noDetail: AskUserQuestionItem = { ...planReviewQuestion, detail: undefined };

  it.each([
    ["[I2] rejects an approve label that none of the question's options offer", noIntentLabel],
    ["[I2] rejects an intent on a question without detail", noDetail],
  ])("%s", async (_name, question) => {
    const harness = createHarness();
    await expect(
      harness.registry.askQuestions(
        "sess_1",
        { toolName: "ExitPlanMode", toolCallId: "call_1", questions: [question] },
        new AbortController().signal,
      ),
    ).rejects.toMatchObject({ code: "BAD_INTENT", name: "QuestionRequestError" });
    expect(harness.log).toHaveLength(0);
    expect(harness.registry.pendingCount("sess_1")).toBe(0);
  });

  it("[I2] checks the approve label against that question's own options, not the batch's", () => {
    const other: AskUserQuestionItem = {
      ...colourQuestion,
      question: "Other?",
      options: [option("Ship it"), option("Wait")],
    };
    expect(() => validateQuestionBatch([other, noIntentLabel])).toThrow(QuestionRequestError);
  });

  it("[I2] passes a valid intent through to the queue untouched", async () => {
    const seen: AskUserQuestionItem[][] = [];
    const service = new UserQuestionService((_sessionId, request) => {
      seen.push(request.questions);
    });
    service.ask(
      "sess_1",
      { toolName: "ExitPlanMode", toolCallId: "c", questions: [planReviewQuestion] },
      new AbortController().signal,
      { heard: () => {} },
    );
    expect(seen[0]?.[0]?.intent).toEqual({ kind: "plan-review", approve: "Approve" });
  });

  it("[Q1] a batch already in its parsed shape is queued as the asker's own, not a copy (issue 15)", async () => {
    const seen: AskUserQuestionItem[][] = [];
    const service = new UserQuestionService((_sessionId, request) => {
      seen.push(request.questions);
    });
    const questions = validateQuestionBatch([colourQuestion]);
    service.ask(
      "sess_1",
      { toolName: "AskUserQuestion", toolCallId: "c", questions },
      new AbortController().signal,
      { heard: () => {} },
    );
    expect(seen[0]).toBe(questions);
  });

  it("[Q1] a malformed batch is refused before anything is stored", async () => {
    const harness = createHarness();
    await expect(
      harness.registry.askQuestions(
        "sess_1",
        {
          toolName: "AskUserQuestion",
          toolCallId: "c",
          questions: [{ ...colourQuestion, header: "Much too long header" }],
        },
        new AbortController().signal,
      ),
    ).rejects.toMatchObject({ code: "BAD_QUESTIONS" });
    expect(harness.log).toHaveLength(0);
  });
});
