import { colourQuestion, featuresQuestion } from "./registryHarness.ts";
import {
  lateAnswerText,
  planReviewDismissedText,
  questionResultText,
  questionsAbortedText,
  questionsAnsweredText,
  questionsCancelledText,
} from "./resultText.ts";

const batch = [colourQuestion, featuresQuestion];

describe("model-facing result texts", () => {
  it("[Q4] all answered: lists every question with its answers, custom text as the user's words", () => {
    const text = questionsAnsweredText(batch, {
      [colourQuestion.question]: { labels: ["Red"] },
      [featuresQuestion.question]: { labels: ["Search", "Export"], other: "Dark mode" },
    });
    expect(text).toMatch(/answered your questions/i);
    expect(text).toContain(colourQuestion.question);
    expect(text).toContain("Red");
    expect(text).toContain(featuresQuestion.question);
    expect(text).toContain("Search; Export");
    expect(text).toContain(`(in the user's own words) "Dark mode"`);
    expect(text).not.toMatch(/skipped/i);
  });

  it("[Q4] some skipped: lists the answered ones, says how many were skipped, asks for judgment", () => {
    const text = questionsAnsweredText(batch, { [colourQuestion.question]: { labels: ["Red"] } });
    expect(text).toContain("answered 1 of 2 questions");
    expect(text).toContain("Red");
    expect(text).toContain("skipped 1 question:");
    expect(text).toContain(`- ${featuresQuestion.question}`);
    expect(text).toMatch(/your own judgment/i);
  });

  it("[Q4] none answered: explicitly not a refusal, continue with defaults, invent nothing", () => {
    const text = questionsAnsweredText(batch, {});
    expect(text).toMatch(/not a refusal/i);
    expect(text).toMatch(/reasonable defaults/i);
    expect(text).toMatch(/do not invent preferences/i);
    expect(text).not.toContain("Red");
  });

  it("[A3] an automatic continuation reads as the none-answered text", () => {
    expect(questionResultText(batch, { type: "answered", answers: {}, auto: true })).toBe(
      questionsAnsweredText(batch, {}),
    );
  });

  it("[Q8] a dismissal and an abort tell the model different things", () => {
    const cancelled = questionResultText(batch, { type: "cancelled" });
    const aborted = questionResultText(batch, { type: "aborted", reason: "turn cancelled" });
    expect(cancelled).toBe(questionsCancelledText());
    expect(aborted).toBe(questionsAbortedText("turn cancelled"));
    expect(cancelled).not.toBe(aborted);
    expect(cancelled).toMatch(/dismissed/i);
    expect(cancelled).toMatch(/do not assume any answers/i);
    expect(aborted).toContain("turn cancelled");
    expect(aborted).toMatch(/no user reply is coming/i);
  });

  it("[I7] a review set aside to talk: stay in plan mode and wait", () => {
    const text = planReviewDismissedText();
    expect(text).toMatch(/discuss/i);
    expect(text).toMatch(/stay in plan mode/i);
    expect(text).toMatch(/wait for the user/i);
    expect(text).not.toBe(questionsCancelledText());
  });

  it("[X2] a late answer says the user answered after all and lists the answers", () => {
    const text = lateAnswerText(batch, { [featuresQuestion.question]: { labels: ["Sharing"] } });
    expect(text).toMatch(/answered after all/i);
    expect(text).toContain("Sharing");
    expect(text).not.toContain(colourQuestion.question);
  });
});
