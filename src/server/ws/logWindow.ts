import type { EarlierHistory, SessionEntry, StoredEntry } from "../../protocol/index.ts";
import type { SessionLog } from "../store/sessionLog.ts";

export interface WindowLimits {
  maxEntries: number;
  maxBytes: number;
  uncounted?: ReadonlySet<string>;
}

/** Saved drafts and countdown steps draw nothing and come by the thousand: a page holds them freely. */
const UNCOUNTED: ReadonlySet<SessionEntry["kind"]> = new Set([
  "interaction.draft",
  "interaction.countdown",
  "composer.draft",
]);

/**
 * How much of a log a snapshot carries: about two transcript render windows, so opening a
 * 10,000-entry session costs what opening a short one does.
 */
export const SNAPSHOT_LIMITS: WindowLimits = {
  maxEntries: 300,
  maxBytes: 512 * 1024,
  uncounted: UNCOUNTED,
};
/** One "Show earlier" page, unless the client asks for fewer entries: as much as a snapshot. */
export const HISTORY_LIMITS: WindowLimits = SNAPSHOT_LIMITS;

/** A part of a session's log as one frame carries it. */
export interface LogWindow {
  /** Consecutive entries, in order. */
  entries: StoredEntry[];
  /** Older entries the client needs to fold `entries` correctly; never drawn. */
  context: StoredEntry[];
  earlier?: EarlierHistory;
}

/**
 * The latest entries of a session, plus every older entry still in effect: the session's
 * creation, the latest mode, model, todo list, message-box draft and turn boundary, each open interaction with its
 * latest countdown and draft, and the requests that the window's resolutions answer. Folding
 * context then entries gives the same state as folding the whole log.
 */
export function latestWindow(
  log: SessionLog,
  sessionId: string,
  lastSeq: number,
  limits: WindowLimits = SNAPSHOT_LIMITS,
): LogWindow {
  const entries = log.entriesBefore(sessionId, lastSeq + 1, limits);
  const first = entries[0]?.seq ?? lastSeq + 1;
  if (first <= 1) return { entries, context: [] };
  const context = new Map<number, StoredEntry>();
  const add = (stored: StoredEntry | undefined) => {
    if (stored) context.set(stored.seq, stored);
  };
  for (const kind of [
    "session.created",
    "session.modeChanged",
    "session.modelChanged",
    "todos.updated",
    "composer.draft",
  ] as const) {
    add(log.latestOfKind(sessionId, kind, first));
  }
  const started = log.latestOfKind(sessionId, "turn.started", first);
  const ended = log.latestOfKind(sessionId, "turn.ended", first);
  add(started && ended ? (started.seq > ended.seq ? started : ended) : (started ?? ended));
  for (const request of log.openRequests(sessionId, first)) {
    add(request);
    if (request.entry.kind !== "interaction.requested") continue;
    const id = request.entry.request.interactionId;
    add(log.latestOfInteraction(sessionId, id, "interaction.countdown", first));
    add(log.latestOfInteraction(sessionId, id, "interaction.draft", first));
  }
  for (const request of requestsAnsweredIn(log, sessionId, entries, first)) add(request);
  return {
    entries,
    context: [...context.values()].sort((a, b) => a.seq - b.seq),
    earlier: { beforeSeq: first, count: first - 1 },
  };
}

/** The entries just before `beforeSeq`, with the older requests their resolutions answer. */
export function historyPage(
  log: SessionLog,
  sessionId: string,
  beforeSeq: number,
  limits: WindowLimits = HISTORY_LIMITS,
): LogWindow {
  const entries = log.entriesBefore(sessionId, beforeSeq, limits);
  const first = entries[0]?.seq ?? beforeSeq;
  const context = requestsAnsweredIn(log, sessionId, entries, first);
  return first > 1
    ? { entries, context, earlier: { beforeSeq: first, count: first - 1 } }
    : { entries, context };
}

/** A resolved line quotes its questions (and offers a late answer, X2): bring their requests. */
function requestsAnsweredIn(
  log: SessionLog,
  sessionId: string,
  entries: readonly StoredEntry[],
  first: number,
): StoredEntry[] {
  const requested = new Set<string>();
  const found: StoredEntry[] = [];
  for (const { entry } of entries) {
    if (entry.kind === "interaction.requested") requested.add(entry.request.interactionId);
    if (entry.kind !== "interaction.resolved" || requested.has(entry.interactionId)) continue;
    const request = log.latestOfInteraction(
      sessionId,
      entry.interactionId,
      "interaction.requested",
      first,
    );
    if (request) found.push(request);
  }
  return found.sort((a, b) => a.seq - b.seq);
}
