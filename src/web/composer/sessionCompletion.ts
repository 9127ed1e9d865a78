import type { SessionSummary } from "../../protocol/index.ts";

/** A `#sess_…` being typed: where it sits in the text and what follows `sess_`. */
export interface SessionMention {
  /** Index of the `#`. */
  start: number;
  /** Index just past the id characters, which may run on after the caret. */
  end: number;
  query: string;
}

export interface SessionChoice {
  id: string;
  title: string;
}

const ID_CHAR = /[A-Za-z0-9_-]/;
export const MAX_SESSION_CHOICES = 8;

/** M4: the mention the caret is in, when the text before it ends in `#sess_…`. */
export function mentionAt(text: string, caret: number): SessionMention | undefined {
  const before = text.slice(0, caret);
  const match = /(?:^|\s)#(sess_[A-Za-z0-9_-]*)$/i.exec(before);
  const token = match?.[1];
  if (token === undefined) return undefined;
  let end = caret;
  while (end < text.length && ID_CHAR.test(text[end] ?? "")) end++;
  return { start: caret - token.length - 1, end, query: token.slice(5).toLowerCase() };
}

/**
 * Sessions the mention may mean: ids that start with what was typed first, then sessions whose
 * title contains it; most recently active first within each. The current session is left out.
 */
export function matchSessions(
  sessions: readonly SessionSummary[],
  query: string,
  excludeId: string,
  limit = MAX_SESSION_CHOICES,
): SessionChoice[] {
  const byId: SessionSummary[] = [];
  const byTitle: SessionSummary[] = [];
  for (const session of sessions) {
    if (session.id === excludeId) continue;
    if (session.id.toLowerCase().startsWith(`sess_${query}`)) byId.push(session);
    else if (query !== "" && session.title.toLowerCase().includes(query)) byTitle.push(session);
  }
  const recentFirst = (a: SessionSummary, b: SessionSummary) => b.updatedAt - a.updatedAt;
  return [...byId.sort(recentFirst), ...byTitle.sort(recentFirst)]
    .slice(0, limit)
    .map((session) => ({ id: session.id, title: session.title }));
}

/** Puts `#<id>` in place of the mention, followed by one space; the caret goes after it. */
export function insertMention(
  text: string,
  mention: SessionMention,
  id: string,
): { text: string; caret: number } {
  const rest = text.slice(mention.end);
  const spacer = /^\s/.test(rest) ? "" : " ";
  const inserted = `#${id}${spacer}`;
  return {
    text: `${text.slice(0, mention.start)}${inserted}${rest}`,
    caret: mention.start + inserted.length + (spacer === "" ? 1 : 0),
  };
}
