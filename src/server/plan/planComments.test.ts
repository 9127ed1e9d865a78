import type { PlanComment } from "../../protocol/index.ts";
import { planReviewAnswerProblem } from "../interactions/planReviewCheck.ts";
import { questionsAnsweredText } from "../interactions/resultText.ts";
import { planReviewQuestion, verdictOf } from "../tools/exitPlanMode.ts";
import { commentsInFeedback, planCommentsText } from "./planComments.ts";

const comment = (
  id: string,
  start: number,
  end: number,
  quote: string,
  text: string,
): PlanComment => ({
  id,
  anchor: {
    headingPath: ["Plan", "Steps"],
    blockIndex: 0,
    blockText: quote,
    quote,
    lines: { start, end },
  },
  text,
});

describe("plan comments for the model", () => {
  it("[V2] lists every comment in plan order with its quote, section and line numbers, then the overall feedback", () => {
    const text = planCommentsText(
      [
        comment("b", 9, 10, "Write the guide\nin three parts", "Four parts"),
        comment("a", 3, 3, "Goal", 'Say "why"'),
      ],
      "Shorter, please",
    );
    expect(text).toMatch(/^I am not approving the plan yet\. I left 2 comments/);
    expect(text.indexOf('lines="3"')).toBeLessThan(text.indexOf('lines="9-10"'));
    expect(text).toContain('section="Plan > Steps"');
    expect(text).toContain(
      "<quoted>\nWrite the guide\nin three parts\n</quoted>\nFour parts\n</comment>",
    );
    expect(
      text.trimEnd().endsWith("<overall-feedback>\nShorter, please\n</overall-feedback>"),
    ).toBe(true);
    expect(commentsInFeedback(text)).toEqual([
      { quote: "Goal", text: 'Say "why"', lines: { start: 3, end: 3 } },
      {
        quote: "Write the guide\nin three parts",
        text: "Four parts",
        lines: { start: 9, end: 10 },
      },
    ]);
  });

  it("[V2] Refuse with comments is feedback whose text carries them; [V4] an approval keeps them as notes", () => {
    const comments = [comment("a", 2, 2, "One", "Name the file")];
    const spanning = [comment("b", 2, 4, "One", "Split these")];
    const approvedSpan = verdictOf({
      "Review this implementation plan": { labels: ["Approve"], review: { comments: spanning } },
    });
    expect(approvedSpan.type === "approve" && approvedSpan.note).toContain("- Lines 2-4 (");
    const refused = verdictOf({
      "Review this implementation plan": { labels: ["Refuse"], review: { comments } },
    });
    expect(refused).toMatchObject({ type: "feedback", comments });
    expect(refused.type === "feedback" && refused.text).toContain("Name the file");
    const approved = verdictOf({
      "Review this implementation plan": { labels: ["Approve"], other: "Go", review: { comments } },
    });
    expect(approved.type === "approve" && approved.note).toBe(
      "Go\n\n- Line 2 (Plan > Steps), on “One”: Name the file",
    );
  });

  it("[V1] a comment pointing past the plan's last line is refused with a clear message", () => {
    const question = planReviewQuestion("# Plan\n\n1. One");
    const problem = planReviewAnswerProblem(question, {
      labels: ["Refuse"],
      review: { comments: [comment("a", 3, 9, "One", "x")] },
    });
    expect(problem?.message).toMatch(/outside the plan/);
    expect(
      planReviewAnswerProblem(question, {
        labels: ["Refuse"],
        review: { comments: [comment("a", 3, 3, "One", "x")] },
      }),
    ).toBeUndefined();
  });

  it("[V2] comments on a plan another asker showed (AskUserQuestion with a plan-review intent) reach it too", () => {
    const question = { ...planReviewQuestion("# Plan\n\n1. One"), question: "Go with this plan?" };
    const text = questionsAnsweredText([question], {
      "Go with this plan?": {
        labels: ["Refuse"],
        review: {
          comments: [comment("b", 3, 3, "One", "Split it"), comment("a", 1, 1, "Plan", "Rename")],
        },
      },
    });
    expect(text).toContain("Line 1 (Plan > Steps), on “Plan”: Rename");
    expect(text.indexOf("Rename")).toBeLessThan(text.indexOf("Split it"));
  });
});
