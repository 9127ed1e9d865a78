import type { PlanComment } from "../../protocol/index.ts";

/** V2: comments in the order their anchors appear in the plan file. */
export function inPlanOrder(comments: readonly PlanComment[]): PlanComment[] {
  return [...comments].sort(
    (a, b) =>
      a.anchor.lines.start - b.anchor.lines.start ||
      a.anchor.lines.end - b.anchor.lines.end ||
      a.anchor.blockIndex - b.anchor.blockIndex,
  );
}

function lineLabel({ start, end }: PlanComment["anchor"]["lines"]): string {
  return start === end ? `${start}` : `${start}-${end}`;
}

function sectionLabel(comment: PlanComment): string {
  return comment.anchor.headingPath.length > 0
    ? comment.anchor.headingPath.join(" > ")
    : "(before the first heading)";
}

// Attribute values sit in double quotes; a quote inside would end them early.
const attribute = (value: string) => value.replace(/"/g, "'").replace(/\s+/g, " ");

/**
 * V2: what the model reads when the person requests changes. Each comment is a tagged block
 * with the exact text it is about, where that text is (heading path and plan-file lines) and
 * the person's words, so a model can act on every one; the overall feedback follows them.
 */
export function planCommentsText(comments: readonly PlanComment[], overall?: string): string {
  const ordered = inPlanOrder(comments);
  const count = ordered.length === 1 ? "1 comment" : `${ordered.length} comments`;
  const parts = [
    `I am not approving the plan yet. I left ${count} on specific places in it, listed below in plan order. Each names the plan-file lines and the section it is about and quotes the text I commented on.`,
    "Address every comment: change the plan where a comment asks for a change; where a comment only asks a question, answer it in your reply and keep those lines unless the answer changes them. Then submit the whole revised plan for review again.",
    "",
  ];
  ordered.forEach((comment, index) => {
    parts.push(
      `<comment number="${index + 1}" lines="${lineLabel(comment.anchor.lines)}" section="${attribute(sectionLabel(comment))}">`,
      "<quoted>",
      comment.anchor.quote,
      "</quoted>",
      comment.text,
      "</comment>",
      "",
    );
  });
  const general = overall?.trim();
  if (general) parts.push("<overall-feedback>", general, "</overall-feedback>");
  return parts.join("\n").trimEnd();
}

/** V4: comments given with an approval, as markdown notes kept under the plan in its file. */
export function planCommentsNote(comments: readonly PlanComment[]): string {
  return inPlanOrder(comments)
    .map((comment) => {
      const quote = comment.anchor.quote.split("\n").join(" ");
      const { lines } = comment.anchor;
      const word = lines.start === lines.end ? "Line" : "Lines";
      return `- ${word} ${lineLabel(lines)} (${sectionLabel(comment)}), on “${quote}”: ${comment.text}`;
    })
    .join("\n");
}

export interface FedBackComment {
  quote: string;
  text: string;
  lines: { start: number; end: number };
}

const LINES_ATTRIBUTE = /^<comment number="\d+" lines="(\d+)(?:-(\d+))?"/;

/** Reads the comments back out of a `planCommentsText` message (the scripted demo reacts to them). */
export function commentsInFeedback(text: string): FedBackComment[] {
  // Line by line, not one big pattern: this runs over whatever the person typed (R12).
  const found: FedBackComment[] = [];
  let quote: string[] | null = null;
  let words: string[] | null = null;
  let inQuote = false;
  let lines = { start: 0, end: 0 };
  for (const line of text.split("\n")) {
    const opened = LINES_ATTRIBUTE.exec(line);
    if (opened) {
      const start = Number(opened[1]);
      lines = { start, end: opened[2] === undefined ? start : Number(opened[2]) };
      quote = [];
      words = [];
      inQuote = false;
      continue;
    }
    if (quote === null || words === null) continue;
    if (line === "<quoted>") inQuote = true;
    else if (line === "</quoted>") inQuote = false;
    else if (line === "</comment>") {
      found.push({ quote: quote.join("\n"), text: words.join("\n").trim(), lines });
      quote = null;
      words = null;
    } else (inQuote ? quote : words).push(line);
  }
  return found;
}

/** Bad input gets a clear error: a comment must point inside the plan it was written on. */
export function commentsOutsidePlan(plan: string, comments: readonly PlanComment[]): boolean {
  const lineCount = plan.split("\n").length;
  return comments.some(
    ({ anchor }) => anchor.lines.start > anchor.lines.end || anchor.lines.end > lineCount,
  );
}
