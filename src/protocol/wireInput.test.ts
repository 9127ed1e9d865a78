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

  it("[R2] an input nested deeper than any tool's walks no further, so a hostile one cannot overflow the stack", () => {
    let nested: unknown = "x".repeat(WIRE_INPUT_CHARS + 1);
    for (let level = 0; level < 100_000; level++) nested = [nested];
    expect(clipLongStrings(nested)).toBe(nested);
    const shallow = { a: [{ b: "y".repeat(WIRE_INPUT_CHARS + 1) }] };
    expect(clipLongStrings(shallow)).toEqual({
      a: [{ b: { clipped: "y".repeat(WIRE_INPUT_CHARS), moreChars: 1 } }],
    });
  });
});
