import type { CountdownState, InteractionRequest } from "../../protocol/index.ts";

export type WaitingKind = "question" | "review" | "permission" | "unknown";

/** Something that waits for the user, in any session this tab knows of. */
export interface WaitingItem {
  /** Stable while the same thing waits: an interaction id, or a session's count when that is all we know. */
  key: string;
  sessionId: string;
  kind: WaitingKind;
  /** The first question's text, the tool's summary, or nothing. */
  text?: string;
  countdown: CountdownState;
}

/** What the tab remembers between checks; replaced, never mutated. */
export interface AttentionMemory {
  /** Keys the user could see on a visible tab. */
  readonly seen: ReadonlySet<string>;
  /** `key#arrived` and `key#countdown`: notifications already decided. */
  readonly notified: ReadonlySet<string>;
}

export interface Notice {
  key: string;
  sessionId: string;
  kind: WaitingKind;
  text?: string;
  /** Set when the countdown is showing: the notice says when the agent continues (X5). */
  deadlineAt?: number;
}

export interface AttentionDecision {
  /** Number for the title badge; 0 means no badge. */
  badgeCount: number;
  notify: Notice[];
  /** Server time of the next countdown that becomes visible while hidden, for a timer. */
  nextCheckAt: number | null;
  memory: AttentionMemory;
}

export const EMPTY_MEMORY: AttentionMemory = { seen: new Set(), notified: new Set() };

function isCountdownShowing(countdown: CountdownState, now: number): boolean {
  return countdown.phase === "counting" && now >= countdown.visibleAt && now < countdown.deadlineAt;
}

function isCountdownAhead(
  countdown: CountdownState,
  now: number,
): countdown is Extract<CountdownState, { phase: "counting" }> {
  return countdown.phase === "counting" && now < countdown.visibleAt;
}

/**
 * W4/X5 as a pure decision. A visible tab shows everything itself: no badge, nothing to
 * notify, and what it showed counts as seen. A hidden tab gets a badge with the number
 * waiting, one notice for each item that arrived unseen, and one more when an item's
 * countdown becomes visible — so the user hears before the deadline, not after.
 * `now` is server time.
 */
export function attentionState(
  waiting: readonly WaitingItem[],
  hidden: boolean,
  now: number,
  memory: AttentionMemory,
): AttentionDecision {
  const live = new Set(waiting.map((item) => item.key));
  const seen = new Set([...memory.seen].filter((key) => live.has(key)));
  const notified = new Set(
    [...memory.notified].filter((mark) => live.has(mark.slice(0, mark.lastIndexOf("#")))),
  );

  if (!hidden) {
    for (const item of waiting) {
      seen.add(item.key);
      if (isCountdownShowing(item.countdown, now) || item.countdown.phase !== "counting") {
        notified.add(`${item.key}#countdown`);
      }
    }
    return { badgeCount: 0, notify: [], nextCheckAt: null, memory: { seen, notified } };
  }

  const notify: Notice[] = [];
  let nextCheckAt: number | null = null;
  for (const item of waiting) {
    const arrived = !seen.has(item.key) && !notified.has(`${item.key}#arrived`);
    const showing =
      isCountdownShowing(item.countdown, now) && !notified.has(`${item.key}#countdown`);
    if (arrived) notified.add(`${item.key}#arrived`);
    if (showing) notified.add(`${item.key}#countdown`);
    if (arrived || showing) notify.push(noticeOf(item, showing));
    if (isCountdownAhead(item.countdown, now) && !notified.has(`${item.key}#countdown`)) {
      const at = item.countdown.visibleAt;
      nextCheckAt = nextCheckAt === null ? at : Math.min(nextCheckAt, at);
    }
  }
  return { badgeCount: waiting.length, notify, nextCheckAt, memory: { seen, notified } };
}

function noticeOf(item: WaitingItem, withDeadline: boolean): Notice {
  const notice: Notice = { key: item.key, sessionId: item.sessionId, kind: item.kind };
  if (item.text !== undefined) notice.text = item.text;
  if (withDeadline && item.countdown.phase === "counting") {
    notice.deadlineAt = item.countdown.deadlineAt;
  }
  return notice;
}

export function waitingKindOf(request: InteractionRequest): WaitingKind {
  if (request.kind === "permission") return "permission";
  return request.questions.some((question) => question.intent?.kind === "plan-review")
    ? "review"
    : "question";
}
