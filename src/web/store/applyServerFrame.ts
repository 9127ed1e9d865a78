import type { ClientFrame, ServerFrame, SessionSummary } from "../../protocol/index.ts";
import { applyInboxFrame } from "../inbox/inboxState.ts";
import { dropSession, receiptArrived } from "./outbox.ts";
import {
  applyDelta,
  applyEntries,
  applyEntry,
  applyTurnStopped,
  emptySessionView,
  prependEarlier,
  viewFromWindow,
} from "./sessionView.ts";
import type { SessionView, WebData } from "./types.ts";

export interface FrameResult<S extends WebData> {
  state: S;
  /** Frames the client must send in answer, such as a resync after a gap. */
  outgoing: ClientFrame[];
}

function withView<S extends WebData>(state: S, view: SessionView): S {
  return { ...state, views: { ...state.views, [view.sessionId]: view } };
}

function withSession<S extends WebData>(state: S, session: SessionSummary): S {
  return { ...state, sessions: { ...state.sessions, [session.id]: session } };
}

/**
 * The whole client state as a fold over server frames (W3). Pure: the connection glue sends
 * `outgoing` and stores `state`. `receivedAt` is the browser clock when the frame arrived.
 */
export function applyServerFrame<S extends WebData>(
  state: S,
  frame: ServerFrame,
  receivedAt: number,
): FrameResult<S> {
  switch (frame.type) {
    case "welcome": {
      const clockOffsetMs = frame.serverNow - receivedAt;
      const sessions = Object.fromEntries(frame.sessions.map((s) => [s.id, s]));
      const selected = state.selectedSessionId;
      const keepSelection = selected !== null && (selected in sessions || selected in state.views);
      const views = Object.fromEntries(
        Object.entries(state.views).map(([id, view]) => [id, { ...view, loadingEarlier: false }]),
      );
      const next: S = {
        ...state,
        views,
        connection: { status: "open", clockOffsetMs },
        clockOffsetMs,
        // A failing store is said right after the welcome; a welcome alone means it works.
        storage: { state: "ok" },
        sessions,
        models: frame.models,
        settings: frame.settings,
        timings: frame.timings,
        selectedSessionId: keepSelection ? selected : null,
      };
      // The selected session, loaded or not, was in hello's resume points: nothing to ask.
      return { state: next, outgoing: [] };
    }
    case "event": {
      const view = state.views[frame.sessionId];
      if (!view) return { state, outgoing: [] };
      if (frame.seq <= view.lastSeq) return { state, outgoing: [] };
      if (frame.seq > view.lastSeq + 1) {
        if (view.resyncing) return { state, outgoing: [] };
        return {
          state: withView(state, { ...view, resyncing: true }),
          outgoing: [{ type: "session.open", sessionId: frame.sessionId, lastSeq: view.lastSeq }],
        };
      }
      const applied = applyEntry(view, { seq: frame.seq, at: frame.at, entry: frame.entry });
      return { state: withView(state, { ...applied, resyncing: false }), outgoing: [] };
    }
    case "snapshot": {
      const id = frame.session.id;
      const known = state.views[id];
      const first = frame.entries.reduce(
        (min, e) => Math.min(min, e.seq),
        Number.POSITIVE_INFINITY,
      );
      const continues =
        known !== undefined && (frame.entries.length === 0 || first <= known.lastSeq + 1);
      let view: SessionView;
      const outgoing: ClientFrame[] = [];
      if (continues && known) {
        view = applyEntries({ ...known, resyncing: false, loadingEarlier: false }, frame.entries);
      } else if (frame.entries.length === 0 || first === 1 || frame.earlier) {
        view = viewFromWindow(id, frame.context ?? [], frame.entries, frame.earlier ?? null);
      } else {
        view = { ...(known ?? emptySessionView(id)), resyncing: true };
        outgoing.push({ type: "session.open", sessionId: id });
      }
      let next = withView(withSession(state, frame.session), view);
      if (state.awaitingCreatedSession && (frame.created || known === undefined)) {
        next = { ...next, selectedSessionId: id, awaitingCreatedSession: false, page: "session" };
      }
      return { state: next, outgoing };
    }
    case "history": {
      const view = state.views[frame.sessionId];
      if (!view) return { state, outgoing: [] };
      return { state: withView(state, prependEarlier(view, frame)), outgoing: [] };
    }
    case "session.upserted":
      return { state: withSession(state, frame.session), outgoing: [] };
    case "session.removed": {
      const { [frame.sessionId]: _gone, ...sessions } = state.sessions;
      const { [frame.sessionId]: _view, ...views } = state.views;
      const selected = state.selectedSessionId === frame.sessionId ? null : state.selectedSessionId;
      return {
        state: {
          ...state,
          sessions,
          views,
          selectedSessionId: selected,
          outbox: dropSession(state.outbox, frame.sessionId),
        },
        outgoing: [],
      };
    }
    case "settings.changed":
      return { state: { ...state, settings: frame.settings }, outgoing: [] };
    case "turn.stopped": {
      const view = state.views[frame.sessionId];
      if (!view) return { state, outgoing: [] };
      return { state: withView(state, applyTurnStopped(view, frame.code)), outgoing: [] };
    }
    case "assistant.delta": {
      const view = state.views[frame.sessionId];
      if (!view) return { state, outgoing: [] };
      return { state: withView(state, applyDelta(view, frame.text)), outgoing: [] };
    }
    case "receipt": {
      const receipt = frame.ok
        ? { ok: true as const }
        : { ok: false as const, code: frame.code, message: frame.message };
      return {
        state: {
          ...state,
          receipts: { ...state.receipts, [frame.interactionId]: receipt },
          outbox: receiptArrived(state.outbox, frame.interactionId),
        },
        outgoing: [],
      };
    }
    case "error": {
      const lastError = { code: frame.code, message: frame.message, ref: frame.ref };
      return { state: { ...state, lastError }, outgoing: [] };
    }
    case "storage.changed": {
      // R3: a refusal the outage caused is over with it; the person may simply try again.
      const over = frame.health.state === "ok" && state.lastError?.code === "STORAGE_FAILED";
      return {
        state: { ...state, storage: frame.health, ...(over ? { lastError: null } : {}) },
        outgoing: [],
      };
    }
    case "inbox.snapshot":
    case "inbox.changed":
      return {
        state: {
          ...state,
          inbox: applyInboxFrame(
            state.inbox,
            frame,
            (sessionId, id) => state.views[sessionId]?.requests[id],
          ),
        },
        outgoing: [],
      };
  }
}

/**
 * W3: what `hello` asks the server to replay, one point per session this client holds, and
 * the selected session from seq 0 when it is not loaded yet (a page opening on `#/s/<id>`),
 * so its snapshot follows welcome without another round trip.
 */
export function resumePoints(state: WebData): { sessionId: string; lastSeq: number }[] {
  const points = Object.values(state.views).map((view) => ({
    sessionId: view.sessionId,
    lastSeq: view.lastSeq,
  }));
  const selected = state.selectedSessionId;
  return selected !== null && !(selected in state.views)
    ? [{ sessionId: selected, lastSeq: 0 }, ...points]
    : points;
}
