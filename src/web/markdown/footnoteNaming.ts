/**
 * R5: how a text's notes are named. `heading` and `backTo` are what a screen reader hears (the
 * list's hidden heading, each way back to a reference), in the page's language; `scope` keeps
 * one text's ids apart from another's on the same page (two messages with a note [^1], a plan
 * shown twice). The default is what remark-gfm writes, so the parity tests hold it to that.
 */
export interface FootnoteNaming {
  readonly heading: string;
  /** `reference`: the reference's number, and for a later one of the same note "-2", "-3"… */
  backTo(reference: string): string;
  /** Put after `user-content-` in the notes' and references' ids, and before the heading's. */
  readonly scope: string;
}

export const REMARK_FOOTNOTE_NAMING: FootnoteNaming = {
  heading: "Footnotes",
  backTo: (reference) => `Back to reference ${reference}`,
  scope: "",
};
