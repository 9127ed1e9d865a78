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

interface WrittenQuestion {
  question: string;
  header: string;
  options: { label: string; description?: string | undefined }[];
}

/** Format characters (zero-width spaces, bidi marks) take no room on screen. */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/** How a label reads: without format characters, spaces collapsed, compatibility forms folded. */
function labelAsSeen(label: string): string {
  return label.replace(FORMAT_CHARACTERS, "").replace(/\s+/g, " ").trim().normalize("NFKC");
}

/**
 * Q1/Q3: what a model or an agent writes says something: no question, header or label that
 * is blank, also when it is made of characters that show nothing (U+200B).
 */
export function questionNotBlank(item: WrittenQuestion): boolean {
  return [item.question, item.header, ...item.options.map((o) => o.label)].every(
    (text) => labelAsSeen(text) !== "",
  );
}

/** Q1: new options must look different: "Approve" and "Approve\u200b" are one label twice. */
export function optionLabelsLookDistinct(item: WrittenQuestion): boolean {
  return new Set(item.options.map((o) => labelAsSeen(o.label))).size === item.options.length;
}

/** Embedding, override and isolate controls reorder text (Trojan Source): "\u202eevorppA" shows as "Approve". */
const REORDERING_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/u;

/** Q1: a question, header, label or description reads as it is written. */
export function questionReadsAsWritten(item: WrittenQuestion): boolean {
  const texts = [item.question, item.header];
  for (const option of item.options) texts.push(option.label, option.description ?? "");
  return !texts.some((text) => REORDERING_CONTROLS.test(text));
}

/** Every refinement by the name a compiled schema refers to it with. */
export const RULES = {
  uniqueOptionLabels,
  uniqueQuestionTexts,
  answerHasChoice,
  planNotBlank,
  questionNotBlank,
  optionLabelsLookDistinct,
  questionReadsAsWritten,
} as const;
export type RuleName = keyof typeof RULES;
