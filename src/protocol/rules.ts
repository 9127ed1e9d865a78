// Refinements the protocol's schemas apply, kept free of zod so the page's frame checker
// (schemaProgram.ts) can run the very same functions by name.

/** Q1: option labels are unique within a question. */
export function uniqueOptionLabels(item: { options: { label: string }[] }): boolean {
  return new Set(item.options.map((o) => o.label)).size === item.options.length;
}

/** Q1: question texts are unique within a batch. */
export function uniqueQuestionTexts(items: { question: string }[]): boolean {
  return new Set(items.map((q) => q.question)).size === items.length;
}

/** An answer picks at least one option or writes its own. */
export function answerHasChoice(answer: { labels: string[]; other?: string }): boolean {
  return answer.labels.length > 0 || answer.other !== undefined;
}

/** P7: a submitted plan is not blank. */
export function planNotBlank(plan: string): boolean {
  return plan.trim() !== "";
}

/** Q1/Q3: what a model or an agent writes says something: no blank question, header or label. */
export function questionNotBlank(item: {
  question: string;
  header: string;
  options: { label: string }[];
}): boolean {
  return [item.question, item.header, ...item.options.map((o) => o.label)].every(
    (text) => text.trim() !== "",
  );
}

/** Every refinement by the name a compiled schema refers to it with. */
export const RULES = {
  uniqueOptionLabels,
  uniqueQuestionTexts,
  answerHasChoice,
  planNotBlank,
  questionNotBlank,
} as const;
export type RuleName = keyof typeof RULES;
