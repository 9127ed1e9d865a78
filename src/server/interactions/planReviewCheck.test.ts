import { describe, expect, it } from "vitest";
import { planContentHash } from "../plan/planHash.ts";
import { planReviewQuestion } from "../tools/exitPlanMode.ts";
import { checkAnswers } from "./answerCheck.ts";

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
});
