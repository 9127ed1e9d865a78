/** V4: the heading the approval's notes sit under in the plan file. */
export const APPROVAL_NOTES_HEADING = "## Notes given with the approval";

/** V4: the plan file's text: the plan, then the notes the person approved it with. */
export function planWithNotes(plan: string, note: string | undefined): string {
  if (note === undefined || note.trim() === "") return plan;
  return `${plan.replace(/\s+$/, "")}\n\n---\n\n${APPROVAL_NOTES_HEADING}\n\n${note.trim()}\n`;
}
