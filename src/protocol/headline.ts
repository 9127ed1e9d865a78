import type { InteractionRequest } from "./interactions.ts";

const LONGEST = 120;

/**
 * U1/U3: the line that names a waiting request in a list or a notification. A plan review is
 * named by its plan's first line (its title), not by its question, which a server-side asker
 * words the same way, in English, for every plan; a question by its text; a permission by the
 * tool and what it touches.
 */
export function headlineOf(request: InteractionRequest): string {
  if (request.kind === "permission") return `${request.toolName} · ${request.summary}`;
  const first = request.questions[0];
  if (first?.intent?.kind === "plan-review" && first.detail !== undefined) {
    const title = markdownTitle(first.detail);
    if (title !== "") return title;
  }
  return first?.question ?? request.toolName;
}

/**
 * The first line with text, without its heading marks, at most LONGEST characters. Read up to
 * that line only: the page names every waiting request on each store change, and a plan may be
 * 300 KB.
 */
export function markdownTitle(markdown: string): string {
  let start = 0;
  let line = "";
  while (start < markdown.length && line.trim() === "") {
    const end = markdown.indexOf("\n", start);
    line = markdown.slice(start, end < 0 ? markdown.length : Math.min(end, start + 4 * LONGEST));
    start = end < 0 ? markdown.length : end + 1;
  }
  const text = line
    .replace(/^\s{0,3}#{1,6}(\s+|$)/, "")
    .replace(/\s+#+\s*$/, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > LONGEST ? `${text.slice(0, LONGEST - 1)}…` : text;
}
