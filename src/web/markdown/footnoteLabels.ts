/**
 * R5: what a text's notes say to a screen reader (the list's hidden heading, each way back to a
 * reference), in the page's language. English is what remark-gfm writes, so the parity tests
 * hold the default to it.
 */
export interface FootnoteLabels {
  readonly heading: string;
  /** `reference`: the reference's number, and for a later one of the same note "-2", "-3"… */
  backTo(reference: string): string;
}

export const ENGLISH_FOOTNOTE_LABELS: FootnoteLabels = {
  heading: "Footnotes",
  backTo: (reference) => `Back to reference ${reference}`,
};
