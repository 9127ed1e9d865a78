import type { Passage } from "./passages.ts";

const WORD = /[\p{L}\p{N}_]+/gu;
const HAN_OR_KANA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** English words too common to say what a passage is about. */
const STOP_WORDS = new Set(
  (
    "a an and are as at be but by can could did do does for from had has have how i if in " +
    "is it its me my no not of on or our so than that the their them then there these they " +
    "this to too was we were what when where which who why will with would you your"
  ).split(" "),
);

/**
 * Lower-cased words; runs of Chinese or Japanese characters, which carry no spaces, become
 * overlapping character pairs so that a two-character term still matches inside a sentence.
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.toLowerCase().matchAll(WORD)) {
    if (!HAN_OR_KANA.test(word)) {
      if ((word.length > 1 || /\d/.test(word)) && !STOP_WORDS.has(word)) out.push(word);
      continue;
    }
    const chars = [...word];
    if (chars.length === 1) out.push(word);
    for (let index = 0; index + 1 < chars.length; index++) {
      out.push(chars[index]! + chars[index + 1]!);
    }
  }
  return out;
}

export interface Ranked {
  readonly passage: Passage;
  readonly score: number;
}

/** Okapi BM25 of each passage against the query; passages sharing no term are left out. */
export function rankPassages(
  passages: readonly Passage[],
  query: string,
  options: { k1?: number; b?: number } = {},
): Ranked[] {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const queryTerms = [...new Set(terms(query))];
  if (queryTerms.length === 0 || passages.length === 0) return [];
  const docs = passages.map((passage) => {
    const counts = new Map<string, number>();
    const words = terms(passage.text);
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    return { passage, counts, length: words.length };
  });
  const averageLength = docs.reduce((sum, doc) => sum + doc.length, 0) / docs.length || 1;
  const idf = new Map<string, number>();
  for (const term of queryTerms) {
    const df = docs.filter((doc) => doc.counts.has(term)).length;
    idf.set(term, Math.log(1 + (docs.length - df + 0.5) / (df + 0.5)));
  }
  const ranked: Ranked[] = [];
  for (const doc of docs) {
    let score = 0;
    for (const term of queryTerms) {
      const frequency = doc.counts.get(term) ?? 0;
      if (frequency === 0) continue;
      const norm = frequency + k1 * (1 - b + (b * doc.length) / averageLength);
      score += (idf.get(term) ?? 0) * ((frequency * (k1 + 1)) / norm);
    }
    if (score > 0) ranked.push({ passage: doc.passage, score });
  }
  // Equal scores: the later passage first, since it is closer to where that session ended.
  return ranked.sort((a, b) => b.score - a.score || b.passage.seq - a.passage.seq);
}
