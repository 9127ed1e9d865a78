import type { EarlierHistory, StoredEntry } from "../../protocol/index.ts";
import type { SessionView } from "./types.ts";

export function emptySessionView(sessionId: string): SessionView {
  return {
    sessionId,
    entries: [],
    earlier: null,
    loadingEarlier: false,
    lastSeq: 0,
    mode: null,
    model: null,
    todos: [],
    pending: [],
    requests: {},
    resolved: {},
    streaming: "",
    running: false,
    stopped: null,
    resyncing: false,
    composerDraft: "",
  };
}

/**
 * Folds one stored entry into a session view. An entry at or below `lastSeq` was already
 * applied and returns the same view, so replays and duplicate deliveries are harmless.
 */
export function applyEntry(view: SessionView, stored: StoredEntry): SessionView {
  if (stored.seq <= view.lastSeq) return view;
  return foldEntry(view, stored, [...view.entries, stored]);
}

/** `entries` already ends with `stored`; the caller decides whether it is a fresh array. */
function foldEntry(view: SessionView, stored: StoredEntry, entries: StoredEntry[]): SessionView {
  const next: SessionView = { ...view, entries, lastSeq: stored.seq };
  const entry = stored.entry;
  switch (entry.kind) {
    case "session.created":
      return { ...next, mode: entry.mode, model: entry.model };
    case "session.modeChanged":
      return { ...next, mode: entry.mode };
    case "session.modelChanged":
      return { ...next, model: entry.model };
    case "todos.updated":
      return { ...next, todos: entry.todos };
    case "composer.draft":
      return { ...next, composerDraft: entry.text };
    case "turn.started":
      return { ...next, running: true, stopped: null, streaming: "" };
    case "turn.ended":
      return { ...next, running: false, stopped: null, streaming: "" };
    case "assistant.message":
      return { ...next, streaming: "" };
    case "interaction.requested": {
      const id = entry.request.interactionId;
      if (next.pending.some((p) => p.request.interactionId === id) || next.resolved[id]) {
        return next;
      }
      return {
        ...next,
        requests: { ...next.requests, [id]: entry.request },
        pending: [...next.pending, { request: entry.request, countdown: { phase: "ineligible" } }],
      };
    }
    case "interaction.countdown":
      return {
        ...next,
        pending: next.pending.map((p) =>
          p.request.interactionId === entry.interactionId
            ? { ...p, countdown: entry.countdown }
            : p,
        ),
      };
    case "interaction.draft":
      return {
        ...next,
        pending: next.pending.map((p) =>
          p.request.interactionId === entry.interactionId ? { ...p, draft: entry.draft } : p,
        ),
      };
    case "interaction.resolved":
      return {
        ...next,
        pending: next.pending.filter((p) => p.request.interactionId !== entry.interactionId),
        resolved: {
          ...next.resolved,
          [entry.interactionId]: { outcome: entry.outcome, at: stored.at },
        },
      };
    default:
      return next;
  }
}

export function applyEntries(view: SessionView, entries: readonly StoredEntry[]): SessionView {
  // One shared array for the whole batch: copying it per entry made a 10,000-entry snapshot quadratic.
  const accepted = [...view.entries];
  let result = view;
  for (const stored of [...entries].sort((a, b) => a.seq - b.seq)) {
    if (stored.seq <= result.lastSeq) continue;
    accepted.push(stored);
    result = foldEntry(result, stored, accepted);
  }
  return result;
}

/**
 * Builds a view from the latest part of a log: `context` (older entries still in effect)
 * shapes state only, then `entries` are folded as usual and make up the transcript.
 */
export function viewFromWindow(
  sessionId: string,
  context: readonly StoredEntry[],
  entries: readonly StoredEntry[],
  earlier: EarlierHistory | null,
): SessionView {
  let view = emptySessionView(sessionId);
  for (const stored of [...context].sort((a, b) => a.seq - b.seq)) {
    view = foldEntry(view, stored, view.entries);
  }
  return { ...applyEntries(view, entries), earlier };
}

/**
 * Puts a page of older entries in front of the transcript. State is already current, so the
 * page only adds what lines about the past look up: requests and how they ended. A page that
 * does not end right where the view begins (late, or a duplicate) changes nothing.
 */
export function prependEarlier(
  view: SessionView,
  page: {
    beforeSeq: number;
    entries: readonly StoredEntry[];
    context?: readonly StoredEntry[];
    earlier?: EarlierHistory;
  },
): SessionView {
  const settled = { ...view, loadingEarlier: false };
  if (view.earlier === null || page.beforeSeq !== view.earlier.beforeSeq) return settled;
  const older = [...page.entries]
    .filter((stored) => stored.seq < page.beforeSeq)
    .sort((a, b) => a.seq - b.seq);
  const last = older[older.length - 1];
  if (last && last.seq !== page.beforeSeq - 1) return settled;
  let requests = view.requests;
  let resolved = view.resolved;
  for (const stored of [...(page.context ?? []), ...older]) {
    const entry = stored.entry;
    if (entry.kind === "interaction.requested" && !requests[entry.request.interactionId]) {
      requests = { ...requests, [entry.request.interactionId]: entry.request };
    }
    if (entry.kind === "interaction.resolved" && !resolved[entry.interactionId]) {
      resolved = {
        ...resolved,
        [entry.interactionId]: { outcome: entry.outcome, at: stored.at },
      };
    }
  }
  return {
    ...settled,
    entries: [...older, ...view.entries],
    requests,
    resolved,
    earlier: page.earlier ?? null,
  };
}

/** R3: the turn stopped though its end is not in the log yet; the log's end replaces this. */
export function applyTurnStopped(view: SessionView, code: string): SessionView {
  return { ...view, running: false, stopped: code, streaming: "" };
}

/** Streamed text arrives in pieces; the next assistant.message or turn end clears it. */
export function applyDelta(view: SessionView, text: string): SessionView {
  return { ...view, streaming: view.streaming + text };
}
