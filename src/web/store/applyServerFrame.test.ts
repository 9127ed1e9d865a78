import { describe, expect, it } from "vitest";
import type { ServerFrame } from "../../protocol/index.ts";
import { applyServerFrame, resumePoints } from "./applyServerFrame.ts";
import {
  created,
  eventFrame,
  questionRequest,
  snapshotFrame,
  stored,
  summary,
  welcomeFrame,
} from "./fixtures.ts";
import { appStore, resetStore } from "./store.ts";
import type { WebData } from "./types.ts";

type SnapshotFrame = Extract<ServerFrame, { type: "snapshot" }>;

function initial(): WebData {
  resetStore();
  return appStore.getState();
}

function fold(frames: ServerFrame[], start: WebData = initial()) {
  let state = start;
  const outgoing = [];
  for (const frame of frames) {
    const result = applyServerFrame(state, frame, 1_000);
    state = result.state;
    outgoing.push(...result.outgoing);
  }
  return { state, outgoing };
}

const opened = () => fold([snapshotFrame("s1", [stored(1, created)])]).state;

describe("applyServerFrame: entries", () => {
  it("[W3] applies events in seq order and tracks lastSeq", () => {
    const { state } = fold(
      [
        eventFrame("s1", 2, { kind: "user.message", text: "hi" }),
        eventFrame("s1", 3, { kind: "assistant.message", text: "hello" }),
      ],
      opened(),
    );
    const view = state.views.s1!;
    expect(view.lastSeq).toBe(3);
    expect(view.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(view.entries.map((e) => e.entry.kind)).toEqual([
      "session.created",
      "user.message",
      "assistant.message",
    ]);
  });

  it("[W3] ignores an event whose seq it already has", () => {
    const first = fold([eventFrame("s1", 2, { kind: "user.message", text: "hi" })], opened());
    const again = fold([eventFrame("s1", 2, { kind: "user.message", text: "hi" })], first.state);
    expect(again.state).toBe(first.state);
    expect(again.outgoing).toEqual([]);
  });

  it("[W3] asks for a resync once when seq jumps, and resumes when the gap is filled", () => {
    const gap = fold(
      [
        eventFrame("s1", 4, { kind: "user.message", text: "later" }),
        eventFrame("s1", 5, { kind: "user.message", text: "later still" }),
      ],
      opened(),
    );
    expect(gap.outgoing).toEqual([{ type: "session.open", sessionId: "s1", lastSeq: 1 }]);
    expect(gap.state.views.s1!.lastSeq).toBe(1);
    expect(gap.state.views.s1!.resyncing).toBe(true);

    const filled = fold(
      [
        snapshotFrame("s1", [
          stored(2, { kind: "user.message", text: "a" }),
          stored(3, { kind: "user.message", text: "b" }),
          stored(4, { kind: "user.message", text: "later" }),
        ]),
      ],
      gap.state,
    );
    expect(filled.state.views.s1!.lastSeq).toBe(4);
    expect(filled.state.views.s1!.resyncing).toBe(false);
    expect(filled.state.views.s1!.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it("[W3] rebuilds from a snapshot that starts at seq 1", () => {
    const state = fold(
      [snapshotFrame("s1", [stored(1, created), stored(2, { kind: "user.message", text: "x" })])],
      opened(),
    ).state;
    expect(state.views.s1!.entries.map((e) => e.seq)).toEqual([1, 2]);
  });

  it("ignores events of sessions this client has not opened", () => {
    const start = initial();
    const { state } = fold([eventFrame("other", 1, created)], start);
    expect(state).toBe(start);
  });

  it("takes mode, model and todos from their entries", () => {
    const { state } = fold(
      [
        eventFrame("s1", 2, {
          kind: "session.modeChanged",
          mode: { permissionMode: "build", planEnabled: true },
        }),
        eventFrame("s1", 3, { kind: "session.modelChanged", model: "openai/gpt" }),
        eventFrame("s1", 4, {
          kind: "todos.updated",
          todos: [{ content: "write tests", status: "in_progress", priority: "high" }],
        }),
      ],
      opened(),
    );
    const view = state.views.s1!;
    expect(view.mode).toEqual({ permissionMode: "build", planEnabled: true });
    expect(view.model).toBe("openai/gpt");
    expect(view.todos).toHaveLength(1);
  });

  it("keeps streamed text until the final assistant message arrives", () => {
    const streaming = fold(
      [
        eventFrame("s1", 2, { kind: "turn.started" }),
        { type: "assistant.delta", sessionId: "s1", text: "Hel" },
        { type: "assistant.delta", sessionId: "s1", text: "lo" },
      ],
      opened(),
    ).state;
    expect(streaming.views.s1!.streaming).toBe("Hello");
    expect(streaming.views.s1!.running).toBe(true);
    const done = fold(
      [
        eventFrame("s1", 3, { kind: "assistant.message", text: "Hello" }),
        eventFrame("s1", 4, { kind: "turn.ended", reason: "completed" }),
      ],
      streaming,
    ).state;
    expect(done.views.s1!.streaming).toBe("");
    expect(done.views.s1!.running).toBe(false);
  });
});

describe("applyServerFrame: interactions", () => {
  it("[Q7] queues pending interactions first in, first out", () => {
    const { state } = fold(
      [
        eventFrame("s1", 2, { kind: "interaction.requested", request: questionRequest("q1") }),
        eventFrame("s1", 3, { kind: "interaction.requested", request: questionRequest("q2") }),
      ],
      opened(),
    );
    const pending = state.views.s1!.pending;
    expect(pending.map((p) => p.request.interactionId)).toEqual(["q1", "q2"]);
    expect(pending[0]!.countdown).toEqual({ phase: "ineligible" });
  });

  it("[U1] an inbox item that arrived without its request gets the one its session's event just brought", () => {
    const request = questionRequest("q1");
    const { state } = fold(
      [
        eventFrame("s1", 2, { kind: "interaction.requested", request }),
        {
          type: "inbox.changed",
          upserted: [],
          updated: [],
          arrived: [
            {
              interactionId: "q1",
              sessionId: request.sessionId,
              countdown: { phase: "ineligible" },
              queueOrder: 0,
            },
          ],
          removed: [],
        },
      ],
      opened(),
    );
    expect(state.inbox.q1?.request).toEqual(request);
  });

  it("[A6] applies countdown and draft entries to the matching interaction", () => {
    const countdown = { phase: "counting", startedAt: 1, visibleAt: 60_001, deadlineAt: 300_001 };
    const draft = { page: 0, picks: { "Which database for q2?": ["Postgres"] }, other: {} };
    const { state } = fold(
      [
        eventFrame("s1", 2, { kind: "interaction.requested", request: questionRequest("q1") }),
        eventFrame("s1", 3, { kind: "interaction.requested", request: questionRequest("q2") }),
        eventFrame("s1", 4, {
          kind: "interaction.countdown",
          interactionId: "q1",
          countdown: countdown as never,
        }),
        eventFrame("s1", 5, { kind: "interaction.draft", interactionId: "q2", draft }),
      ],
      opened(),
    );
    const [q1, q2] = state.views.s1!.pending;
    expect(q1!.countdown).toEqual(countdown);
    expect(q1!.draft).toBeUndefined();
    expect(q2!.draft).toEqual(draft);
    expect(q2!.countdown).toEqual({ phase: "ineligible" });
  });

  it("[A3] removes a resolved interaction and records an automatic resolution as such", () => {
    const { state } = fold(
      [
        eventFrame("s1", 2, { kind: "interaction.requested", request: questionRequest("q1") }),
        eventFrame("s1", 3, { kind: "interaction.requested", request: questionRequest("q2") }),
        eventFrame("s1", 4, {
          kind: "interaction.resolved",
          interactionId: "q1",
          outcome: { type: "answered", answers: {}, auto: true },
        }),
      ],
      opened(),
    );
    const view = state.views.s1!;
    expect(view.pending.map((p) => p.request.interactionId)).toEqual(["q2"]);
    expect(view.resolved.q1).toEqual({
      outcome: { type: "answered", answers: {}, auto: true },
      at: 10_004,
    });
    expect(view.requests.q1?.interactionId).toBe("q1");
  });

  it("[W3] a reconnecting client gets the pending question back from a snapshot", () => {
    const { state } = fold([
      snapshotFrame("s1", [
        stored(1, created),
        stored(2, { kind: "interaction.requested", request: questionRequest("q1") }),
        stored(3, {
          kind: "interaction.countdown",
          interactionId: "q1",
          countdown: { phase: "counting", startedAt: 5, visibleAt: 60_005, deadlineAt: 300_005 },
        }),
      ]),
    ]);
    expect(state.views.s1!.pending).toEqual([
      {
        request: questionRequest("q1"),
        countdown: { phase: "counting", startedAt: 5, visibleAt: 60_005, deadlineAt: 300_005 },
      },
    ]);
  });

  it("[I6] keeps the latest receipt per interaction", () => {
    const { state } = fold([
      { type: "receipt", interactionId: "q1", ok: false, code: "NOT_PENDING", message: "late" },
      { type: "receipt", interactionId: "q2", ok: true },
    ]);
    expect(state.receipts).toEqual({
      q1: { ok: false, code: "NOT_PENDING", message: "late" },
      q2: { ok: true },
    });
  });
});

describe("applyServerFrame: welcome, sessions, settings", () => {
  it("[A2] derives the clock offset from serverNow at receipt", () => {
    const { state } = applyServerFrame(initial(), welcomeFrame({ serverNow: 51_500 }), 50_000);
    expect(state.clockOffsetMs).toBe(1_500);
    expect(state.connection).toEqual({ status: "open", clockOffsetMs: 1_500 });
  });

  it("[A5] takes settings from welcome and from settings.changed", () => {
    const welcomed = fold([welcomeFrame({ settings: { autoContinue: false, theme: "dark" } })]);
    expect(welcomed.state.settings).toEqual({ autoContinue: false, theme: "dark" });
    const changed = fold(
      [{ type: "settings.changed", settings: { autoContinue: true, theme: "light" } }],
      welcomed.state,
    );
    expect(changed.state.settings).toEqual({ autoContinue: true, theme: "light" });
  });

  it("[W1] lists sessions from welcome and session.upserted", () => {
    const { state } = fold([
      welcomeFrame({ sessions: [summary("a"), summary("b")] }),
      { type: "session.upserted", session: summary("c", { title: "New" }) },
      { type: "session.upserted", session: summary("a", { title: "Renamed" }) },
    ]);
    expect(Object.keys(state.sessions).sort()).toEqual(["a", "b", "c"]);
    expect(state.sessions.a!.title).toBe("Renamed");
  });

  it("[W3] asks for the selected session in hello when it is not loaded yet, so welcome sends nothing more", () => {
    const start = { ...initial(), selectedSessionId: "a" };
    expect(resumePoints(start)).toEqual([{ sessionId: "a", lastSeq: 0 }]);
    const { state, outgoing } = fold([welcomeFrame({ sessions: [summary("a")] })], start);
    expect(state.selectedSessionId).toBe("a");
    expect(outgoing).toEqual([]);
  });

  it("drops a selection the server does not know", () => {
    const start = { ...initial(), selectedSessionId: "gone" };
    const { state, outgoing } = fold([welcomeFrame({ sessions: [summary("a")] })], start);
    expect(state.selectedSessionId).toBeNull();
    expect(outgoing).toEqual([]);
  });

  it("[W1] selects the session it asked to create when its snapshot arrives", () => {
    const start = { ...initial(), awaitingCreatedSession: true, selectedSessionId: "old" };
    const { state } = fold([snapshotFrame("new", [stored(1, created)])], start);
    expect(state.selectedSessionId).toBe("new");
    expect(state.awaitingCreatedSession).toBe(false);
  });

  it("[W1] selects an empty session the server hands back for New session, though this tab knows it", () => {
    const { state: known } = fold([snapshotFrame("empty", [stored(1, created)])]);
    const start = { ...known, awaitingCreatedSession: true, selectedSessionId: "old" };
    const snapshot = snapshotFrame("empty", [stored(1, created)]) as SnapshotFrame;
    const { state } = fold([{ ...snapshot, created: true }], start);
    expect(state.selectedSessionId).toBe("empty");
    expect(state.awaitingCreatedSession).toBe(false);
  });

  it("[W3] resumes from the last seq of every loaded session", () => {
    const { state } = fold([
      snapshotFrame("s1", [stored(1, created), stored(2, { kind: "turn.started" })]),
      snapshotFrame("s2", [stored(1, created)]),
    ]);
    expect(resumePoints(state)).toEqual([
      { sessionId: "s1", lastSeq: 2 },
      { sessionId: "s2", lastSeq: 1 },
    ]);
  });

  it("keeps the last error frame for display", () => {
    const { state } = fold([{ type: "error", code: "SESSION_BUSY", message: "busy" }]);
    expect(state.lastError).toEqual({ code: "SESSION_BUSY", message: "busy", ref: undefined });
  });
});

describe("applyServerFrame: the latest part of a long log", () => {
  const tail = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) =>
      stored(from + i, { kind: "user.message", text: `m${from + i}` }),
    );
  const plan = { permissionMode: "build", planEnabled: true } as const;
  const boundedSnapshot = (): ServerFrame => ({
    type: "snapshot",
    session: summary("s1", { lastSeq: 1_000 }),
    context: [
      stored(1, created),
      stored(5, { kind: "session.modeChanged", mode: plan }),
      stored(6, {
        kind: "todos.updated",
        todos: [{ content: "Ship", status: "in_progress", priority: "high" }],
      }),
      stored(7, { kind: "interaction.requested", request: questionRequest("q_open") }),
      stored(8, {
        kind: "interaction.draft",
        interactionId: "q_open",
        draft: { page: 0, picks: { x: ["SQLite (Recommended)"] }, other: {} },
      }),
      stored(9, { kind: "interaction.requested", request: questionRequest("q_late") }),
      stored(10, { kind: "turn.started" }),
    ],
    entries: [
      ...tail(801, 999),
      stored(1_000, {
        kind: "interaction.resolved",
        interactionId: "q_late",
        outcome: { type: "answered", answers: {}, auto: true },
      }),
    ],
    earlier: { beforeSeq: 801, count: 800 },
  });

  it("[W3] derives mode, todos, the running turn and the pending question from context, and draws only the tail", () => {
    const view = fold([boundedSnapshot()]).state.views.s1!;
    expect(view.entries.map((e) => e.seq)).toEqual(Array.from({ length: 200 }, (_, i) => 801 + i));
    expect(view.lastSeq).toBe(1_000);
    expect(view.mode).toEqual(plan);
    expect(view.todos.map((t) => t.content)).toEqual(["Ship"]);
    expect(view.running).toBe(true);
    expect(view.pending.map((p) => p.request.interactionId)).toEqual(["q_open"]);
    expect(view.pending[0]!.draft?.picks).toEqual({ x: ["SQLite (Recommended)"] });
    expect(view.requests.q_late?.interactionId).toBe("q_late");
    expect(view.earlier).toEqual({ beforeSeq: 801, count: 800 });
  });

  it("[W3] replaces a view that is too far behind with the bounded snapshot", () => {
    const { state, outgoing } = fold([boundedSnapshot()], opened());
    expect(outgoing).toEqual([]);
    expect(state.views.s1!.entries[0]!.seq).toBe(801);
    expect(state.views.s1!.pending).toHaveLength(1);
  });

  it("[W3] keeps a view whose snapshot brings nothing new", () => {
    const start = fold([snapshotFrame("s1", [stored(1, created), ...tail(2, 5)])]).state;
    const { state } = fold([snapshotFrame("s1", [], { lastSeq: 5 })], start);
    expect(state.views.s1!.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it("[W1] puts earlier pages in front, in order, until the log's start, without touching state", () => {
    let state = fold([boundedSnapshot()]).state;
    const page = (beforeSeq: number, from: number, extra: Partial<ServerFrame> = {}): ServerFrame =>
      ({
        type: "history",
        sessionId: "s1",
        beforeSeq,
        entries: tail(from, beforeSeq - 1),
        ...(from > 1 ? { earlier: { beforeSeq: from, count: from - 1 } } : {}),
        ...extra,
      }) as ServerFrame;
    state = fold([page(801, 401)], state).state;
    expect(state.views.s1!.earlier).toEqual({ beforeSeq: 401, count: 400 });
    // A late duplicate of the same page changes nothing.
    state = fold([page(801, 401)], state).state;
    state = fold([page(401, 1)], state).state;
    const view = state.views.s1!;
    expect(view.entries.map((e) => e.seq)).toEqual(Array.from({ length: 1_000 }, (_, i) => i + 1));
    expect(view.earlier).toBeNull();
    expect(view.loadingEarlier).toBe(false);
    expect(view.mode).toEqual(plan);
    expect(view.pending.map((p) => p.request.interactionId)).toEqual(["q_open"]);
  });

  it("[X2] an earlier page brings the requests its resolved lines quote", () => {
    let state = fold([boundedSnapshot()]).state;
    state = fold(
      [
        {
          type: "history",
          sessionId: "s1",
          beforeSeq: 801,
          entries: [
            ...tail(701, 799),
            stored(800, {
              kind: "interaction.resolved",
              interactionId: "q_old",
              outcome: { type: "cancelled" },
            }),
          ],
          context: [
            stored(3, { kind: "interaction.requested", request: questionRequest("q_old") }),
          ],
          earlier: { beforeSeq: 701, count: 700 },
        },
      ],
      state,
    ).state;
    const view = state.views.s1!;
    expect(view.requests.q_old?.interactionId).toBe("q_old");
    expect(view.resolved.q_old?.outcome).toEqual({ type: "cancelled" });
    expect(view.pending.map((p) => p.request.interactionId)).toEqual(["q_open"]);
  });
});

describe("applyServerFrame: sessions going away, drafts and timings", () => {
  it("[W15] drops a removed session everywhere: list, view, selection and held messages", () => {
    const start = initial();
    const { state } = fold([
      welcomeFrame({ sessions: [summary("s1"), summary("s2")] }),
      snapshotFrame("s1", [stored(1, created)]),
    ]);
    const held = {
      ...state,
      selectedSessionId: "s1",
      outbox: {
        items: [
          {
            key: "#1",
            frame: { type: "prompt" as const, sessionId: "s1", text: "hi" },
            receiptsAhead: null,
          },
        ],
        owed: {},
      },
    };
    const { state: after } = fold([{ type: "session.removed", sessionId: "s1" }], held);
    expect(Object.keys(after.sessions)).toEqual(["s2"]);
    expect(after.views.s1).toBeUndefined();
    expect(after.selectedSessionId).toBeNull();
    expect(after.outbox.items).toEqual([]);
    expect(start.timings).toBeNull();
  });

  it("[W14] folds the message box's latest draft into the session view", () => {
    const { state } = fold([
      snapshotFrame("s1", [
        stored(1, created),
        stored(2, { kind: "composer.draft", text: "first" }),
        stored(3, { kind: "composer.draft", text: "second" }),
      ]),
    ]);
    expect(state.views.s1?.composerDraft).toBe("second");
  });

  it("[A2] keeps the server's auto-continue timings from welcome", () => {
    const { state } = fold([welcomeFrame({ timings: { graceMs: 2_000, deadlineMs: 9_000 } })]);
    expect(state.timings).toEqual({ graceMs: 2_000, deadlineMs: 9_000 });
  });

  it("[W7] a receipt settles the sent action it answers", () => {
    const state = {
      ...initial(),
      outbox: {
        items: [
          {
            key: "action:int_1",
            frame: { type: "interaction.cancel" as const, interactionId: "int_1" },
            receiptsAhead: 0,
          },
        ],
        owed: { int_1: 1 },
      },
    };
    const { state: after } = fold(
      [{ type: "receipt", interactionId: "int_1", ok: false, code: "ALREADY_ANSWERED" }],
      state,
    );
    expect(after.outbox).toEqual({ items: [], owed: {} });
    expect(after.receipts.int_1).toEqual({
      ok: false,
      code: "ALREADY_ANSWERED",
      message: undefined,
    });
  });
});

describe("applyServerFrame: storage health", () => {
  const failing: ServerFrame = {
    type: "storage.changed",
    health: { state: "failing", problem: "unreachable" },
  };
  const ok: ServerFrame = { type: "storage.changed", health: { state: "ok" } };
  const refused: ServerFrame = {
    type: "error",
    code: "STORAGE_FAILED",
    message: "The server's storage failed.",
    ref: "prompt",
  };

  it("[R3][W3] holds what the server last said; a welcome alone means the store works", () => {
    expect(initial().storage).toEqual({ state: "ok" });
    const down = fold([welcomeFrame(), failing]).state;
    expect(down.storage).toEqual({ state: "failing", problem: "unreachable" });
    expect(fold([ok], down).state.storage).toEqual({ state: "ok" });
    // A reconnect to a server whose store came back meanwhile: welcome and nothing after it.
    expect(fold([welcomeFrame()], down).state.storage).toEqual({ state: "ok" });
  });

  it("[R3] a refusal the outage caused ends with it; another error stays until dismissed", () => {
    const during = fold([welcomeFrame(), failing, refused]).state;
    expect(during.lastError?.code).toBe("STORAGE_FAILED");
    expect(fold([ok], during).state.lastError).toBeNull();
    const other = fold(
      [failing, { type: "error", code: "BAD_MODEL", message: "There is no model x." }],
      during,
    ).state;
    expect(fold([ok], other).state.lastError?.code).toBe("BAD_MODEL");
  });
});

describe("applyServerFrame: a turn whose end the store refused", () => {
  const stopped: ServerFrame = { type: "turn.stopped", sessionId: "s1", code: "storage.full" };
  const openTurn = () =>
    fold([
      snapshotFrame("s1", [
        stored(1, created),
        stored(2, { kind: "user.message", text: "a long one" }),
        stored(3, { kind: "turn.started" }),
      ]),
    ]).state;

  it("[R3] the turn stops at once, also behind a snapshot that still shows it open, until the log says how it ended", () => {
    expect(openTurn().views.s1?.running).toBe(true);
    const told = fold([stopped], openTurn()).state.views.s1!;
    expect(told).toMatchObject({ running: false, stopped: "storage.full", streaming: "" });
    // A reload: the snapshot shows the turn open, the frame right behind it stops it.
    const reloaded = fold(
      [snapshotFrame("s1", [stored(1, created), stored(3, { kind: "turn.started" })]), stopped],
      initial(),
    ).state.views.s1!;
    expect(reloaded).toMatchObject({ running: false, stopped: "storage.full" });
    const english = "The turn stopped because it could not be saved.";
    const written = fold(
      [
        eventFrame("s1", 4, {
          kind: "notice",
          level: "error",
          text: english,
          code: "storage.full",
        }),
        eventFrame("s1", 5, { kind: "turn.ended", reason: "error", message: english }),
      ],
      fold([stopped], openTurn()).state,
    ).state.views.s1!;
    expect(written).toMatchObject({ running: false, stopped: null });
  });

  it("[R3] a frame for a session this page has not opened changes nothing", () => {
    const state = opened();
    expect(
      fold([{ type: "turn.stopped", sessionId: "other", code: "storage.full" }], state).state,
    ).toBe(state);
  });
});
