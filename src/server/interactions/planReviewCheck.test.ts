import { describe, expect, it } from "vitest";
import type { QuestionRequest } from "../../protocol/index.ts";
import { planContentHash } from "../plan/planHash.ts";
import { planReviewQuestion } from "../tools/exitPlanMode.ts";
import { checkAnswers } from "./answerCheck.ts";
import { supersededApprovalProblem } from "./planReviewCheck.ts";

const PLAN = "# Plan\n\n1. One\n";
const review = planReviewQuestion(PLAN);
const plain = {
  question: "Which store?",
  header: "Store",
  multiSelect: false,
  options: [{ label: "SQLite" }, { label: "Files" }],
};

describe("plan-review answers (V5, V8)", () => {
  it("[V8] an approval naming the hash of the plan shown is accepted", () => {
    const answers = {
      [review.question]: {
        labels: ["Approve"],
        review: { option: "edit" as const, planHash: planContentHash(PLAN) },
      },
    };
    expect(checkAnswers([review], answers)).toEqual({ ok: true, answers });
  });

  it("[V8] an approval naming another text's hash is refused as PLAN_CHANGED", () => {
    const checked = checkAnswers([review], {
      [review.question]: { labels: ["Approve"], review: { planHash: planContentHash("# Other") } },
    });
    expect(checked).toMatchObject({ ok: false, code: "PLAN_CHANGED" });
  });

  it("[V5] a plan-review extension on an ordinary question is refused", () => {
    const checked = checkAnswers([plain], {
      [plain.question]: { labels: ["SQLite"], review: { option: "edit" } },
    });
    expect(checked).toMatchObject({ ok: false, message: expect.stringMatching(/no plan review/) });
  });

  it("[V5] an unknown approve option is malformed", () => {
    const checked = checkAnswers([review], {
      [review.question]: { labels: ["Approve"], review: { option: "yolo" } },
    });
    expect(checked.ok).toBe(false);
  });

  it("[V7] a question about the plan carries its text and no option; with a label it is malformed", () => {
    const asking = { labels: [], other: "Why a cache?", review: { ask: true as const } };
    expect(checkAnswers([review], { [review.question]: asking })).toMatchObject({ ok: true });
    const withLabel = { ...asking, labels: ["Approve"] };
    expect(checkAnswers([review], { [review.question]: withLabel })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/question about the plan/),
    });
  });
});

describe("a superseded revision (V8)", () => {
  const request = (number: number, plan: string): QuestionRequest => ({
    kind: "question",
    interactionId: `int_${number}`,
    sessionId: "s1",
    toolName: "review_plan",
    toolCallId: `call_${number}`,
    questions: [planReviewQuestion(plan)],
    createdAt: 0,
    planRevision: { number, contentHash: planContentHash(plan) },
  });
  const first = request(1, PLAN);
  const second = request(2, "# Plan B\n");
  const approve = { [review.question]: { labels: ["Approve"] } };

  it("[V8] approving a revision while a newer one waits is refused as PLAN_CHANGED", () => {
    expect(supersededApprovalProblem(first, approve, [first, second])).toMatchObject({
      code: "PLAN_CHANGED",
    });
  });

  it("[V8] the newest revision may be approved, and an older one refused or asked about", () => {
    expect(supersededApprovalProblem(second, approve, [first, second])).toBeUndefined();
    const refuse = { [review.question]: { labels: ["Refuse"] } };
    expect(supersededApprovalProblem(first, refuse, [first, second])).toBeUndefined();
    expect(supersededApprovalProblem(first, approve, [first])).toBeUndefined();
  });
});
