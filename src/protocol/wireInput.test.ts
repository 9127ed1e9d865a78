import { clipLongStrings, isClippedString, WIRE_INPUT_CHARS } from "./wireInput.ts";

describe("a tool call's input on the wire", () => {
  it("[W1] cuts each long string wherever it sits and keeps the rest, and hands back the input itself when nothing is long", () => {
    const long = "p".repeat(WIRE_INPUT_CHARS + 10);
    const input = {
      plan: long,
      title: "short",
      questions: [{ question: "Which?", detail: long }, { question: "Why?" }],
      count: 3,
    };
    const sent = clipLongStrings(input) as typeof input & Record<string, unknown>;
    const cut = { clipped: "p".repeat(WIRE_INPUT_CHARS), moreChars: 10 };
    expect(sent).toEqual({
      plan: cut,
      title: "short",
      questions: [{ question: "Which?", detail: cut }, { question: "Why?" }],
      count: 3,
    });
    expect(isClippedString(sent.plan)).toBe(true);
    expect(input.plan).toBe(long);
    expect(sent.questions[1]).toBe(input.questions[1]);

    const small = { command: "npm test", args: ["-w", "x".repeat(WIRE_INPUT_CHARS)] };
    expect(clipLongStrings(small)).toBe(small);
  });
});
