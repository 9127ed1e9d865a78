import { commentsInFeedback } from "../../plan/planComments.ts";

/**
 * A comment that only asks something (in English or Chinese) is answered, not acted on. The
 * full-width `？` is escaped so the server bundle stays pure ASCII (serverBundle.test).
 */
const isQuestion = (text: string) => /[?\uFF1F]$/.test(text.trimEnd());

// The wording carries its own separator: a Chinese note follows the line with no space.
const ENGLISH_NOTE = " (revised: {{comment}})";

function reviseLine(line: string, comment: string, wording: string): string {
  const note = wording.replace("{{comment}}", () =>
    comment.replace(/\s+/g, " ").replace(/\|/g, "/"),
  );
  // A table row keeps its last cell closed.
  const row = /^(.*\S)\s*\|\s*$/.exec(line);
  return row ? `${row[1]}${note} |` : `${line.trimEnd()}${note}`;
}

/**
 * V3 in the demo: the keyless model "revises" the plan lines the person commented on, so the
 * next revision shows which comments were acted on. The comments are read from the person's
 * latest message; each one's last plan-file line gets the comment worked in.
 */
export function reviseCommentedLines(
  plan: string,
  userMessage: string,
  wording = ENGLISH_NOTE,
): string {
  const lines = plan.split("\n");
  for (const comment of commentsInFeedback(userMessage)) {
    if (isQuestion(comment.text)) continue;
    const index = comment.lines.end - 1;
    const line = lines[index];
    if (line !== undefined) lines[index] = reviseLine(line, comment.text, wording);
  }
  return lines.join("\n");
}
