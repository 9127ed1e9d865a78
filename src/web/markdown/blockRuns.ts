/** MarkdownRenderer renders blocks in runs of this many; a text longer than one run leaves in steps. */
export const PAGE_BLOCKS = 24;

/** Whether `root` shows a text long enough to take itself down in steps when it leaves. */
export function showsLongText(root: ParentNode): boolean {
  return root.querySelector(`.md-block:nth-child(${PAGE_BLOCKS + 1})`) !== null;
}
