import { RE2JS } from "re2js";

/** A pattern that cannot be compiled; the message is readable by a model or a person. */
export class PatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PatternError";
  }
}

export interface LinearRegex {
  test(text: string): boolean;
}

/**
 * R12: compiles a regular expression from a model or a scenario into an automaton that runs
 * in time linear in the text (RE2's engine), so `^(a+)+$` on a long line costs what any other
 * pattern costs. The syntax is JavaScript's minus what needs backtracking: lookaround and
 * backreferences are refused with a clear message.
 */
export function compileLinear(
  source: string,
  options: { caseInsensitive?: boolean } = {},
): LinearRegex {
  try {
    const compiled = RE2JS.compile(source, options.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
    return { test: (text) => compiled.test(text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PatternError(
      `${reason}. Patterns run in linear time (RE2 syntax): lookahead, lookbehind and backreferences are not available.`,
    );
  }
}
