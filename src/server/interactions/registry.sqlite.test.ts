import type { Database } from "better-sqlite3";
import { DEFAULT_SETTINGS, type Settings } from "../../protocol/index.ts";
import { CallSteps } from "../sessions/callSteps.ts";
import { openDatabase } from "../store/database.ts";
import { StorageError } from "../store/errors.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { FakeClock } from "./fakeClock.ts";
import type { InteractionRegistry } from "./port.ts";
import { createInteractionRegistry } from "./registry.ts";
import { colourQuestion, DEADLINE_MS, flush, GRACE_MS } from "./registryHarness.ts";

const build = { permissionMode: "build", planEnabled: false } as const;

/** One server process: a database connection, its log and a registry over it. */
function startServer(
  path: string,
  clock: FakeClock,
  settings: Settings | (() => Settings) = DEFAULT_SETTINGS,
  batch?: (log: SessionLog, work: () => void) => void,
  /** Each write takes this long on the clock, as a real one does. */
  writeMs = 0,
) {
  const db = openDatabase(path);
  const log = new SessionLog(db, clock);
  let nextId = 0;
  const registry = createInteractionRegistry({
    append: (sessionId, entry) => {
      const stored = log.append(sessionId, entry);
      if (writeMs > 0) clock.advance(writeMs);
      return stored;
    },
    clock,
    settings: typeof settings === "function" ? settings : () => settings,
    timings: { graceMs: GRACE_MS, deadlineMs: DEADLINE_MS },
    newId: () => `int_${clock.now()}_${++nextId}`,
    ...(batch ? { batch: (work: () => void) => batch(log, work) } : {}),
  });
  return { db, log, registry };
}

function askColour(registry: InteractionRegistry, toolCallId: string, sessionId = "sess_1") {
  return registry.askQuestions(
    sessionId,
    { toolName: "AskUserQuestion", toolCallId, questions: [colourQuestion] },
    new AbortController().signal,
  );
}

/** Three sessions, each with two questions asked at the same instant: three heads due together. */
function askInThreeSessions(server: ReturnType<typeof startServer>) {
  const outcomes: string[] = [];
  for (const sessionId of ["s_a", "s_b", "s_c"]) {
    server.log.createSession({ id: sessionId, title: "t", model: "scripted/demo", mode: build });
    for (const call of ["first", "second"]) {
      void askColour(server.registry, `${sessionId}_${call}`, sessionId).then(() =>
        outcomes.push(`${sessionId}_${call}`),
      );
    }
  }
  return outcomes;
}

function kindsIn(log: SessionLog, kind: string): number {
  return ["s_a", "s_b", "s_c"]
    .flatMap((sessionId) => log.entriesAfter(sessionId, 0))
    .filter((stored) => stored.entry.kind === kind).length;
}

describe("registry over the real session log", () => {
  let dir: ReturnType<typeof tempDir>;
  let open: Database[];
  beforeEach(() => {
    dir = tempDir();
    open = [];
  });
  afterEach(() => {
    for (const db of open) if (db.open) db.close();
    dir.remove();
  });

  it("[A6][A7] survives a restart: the deadline that passed while down resolves at start-up", async () => {
    const clock = new FakeClock();
    const path = `${dir.path}/plangate.db`;
    const first = startServer(path, clock);
    open.push(first.db);
    first.log.createSession({ id: "sess_1", title: "t", model: "scripted/demo", mode: build });
    void askColour(first.registry, "call_a");
    const startedAt = clock.now();
    first.registry.close();
    first.db.close();

    clock.advance(DEADLINE_MS + 1);
    const second = startServer(path, clock);
    open.push(second.db);
    const stored = second.log.entriesAfter("sess_1", 0);
    expect(stored.find((s) => s.entry.kind === "interaction.countdown")?.entry).toMatchObject({
      countdown: {
        phase: "counting",
        startedAt,
        visibleAt: startedAt + GRACE_MS,
        deadlineAt: startedAt + DEADLINE_MS,
      },
    });
    second.registry.restore("sess_1", stored);

    const after = second.log.entriesAfter("sess_1", stored.at(-1)?.seq ?? 0);
    expect(after.map((s) => s.entry)).toEqual([
      {
        kind: "interaction.resolved",
        interactionId: expect.any(String),
        outcome: { type: "answered", answers: {}, auto: true },
      },
    ]);
    // A7/Q5: the re-run call reads its step from the log; nothing of it waits in the registry.
    expect(CallSteps.fromEntries(second.log.entriesAfter("sess_1", 0)).of("call_a")).toEqual({
      kind: "question",
      outcome: { type: "answered", answers: {}, auto: true },
    });
    expect(second.registry.pendingCount("sess_1")).toBe(0);
    expect(second.log.entriesAfter("sess_1", 0)).toHaveLength(stored.length + 1);
  });

  it("[R3] when the database refuses the write, the receipt is STORAGE_FAILED and nothing changes", async () => {
    const clock = new FakeClock();
    const server = startServer(`${dir.path}/plangate.db`, clock);
    open.push(server.db);
    server.log.createSession({ id: "sess_1", title: "t", model: "scripted/demo", mode: build });
    const outcomes: unknown[] = [];
    void askColour(server.registry, "call_a").then((outcome) => outcomes.push(outcome));
    const [pending] = server.registry.pending("sess_1");
    const id = pending?.request.interactionId ?? "";
    server.db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON entries BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );

    expect(server.registry.answer(id, {})).toMatchObject({ ok: false, code: "STORAGE_FAILED" });
    expect(server.registry.pendingCount("sess_1")).toBe(1);
    server.db.exec("DROP TRIGGER refuse");
    expect(server.registry.answer(id, {})).toEqual({ ok: true });
    await flush();
    expect(outcomes).toEqual([{ type: "answered", answers: {}, auto: false }]);
    const kinds = server.log.entriesAfter("sess_1", 0).map((s) => s.entry.kind);
    expect(kinds.filter((kind) => kind === "interaction.resolved")).toHaveLength(1);
  });

  it("[A3] heads of several sessions due together resolve in one commit, and the next heads count from it", async () => {
    const clock = new FakeClock();
    const server = startServer(`${dir.path}/plangate.db`, clock, DEFAULT_SETTINGS, (log, work) =>
      log.batch(work),
    );
    open.push(server.db);
    const outcomes = askInThreeSessions(server);
    // What a listener can read when it hears the first resolution: all three, written as one.
    const seenAtFirst: number[] = [];
    server.log.subscribe((_sessionId, stored) => {
      if (stored.entry.kind === "interaction.resolved" && seenAtFirst.length === 0) {
        seenAtFirst.push(kindsIn(server.log, "interaction.resolved"));
      }
    });

    clock.advance(DEADLINE_MS);
    await flush();
    expect(seenAtFirst).toEqual([3]);
    expect(outcomes.sort()).toEqual(["s_a_first", "s_b_first", "s_c_first"]);
    for (const sessionId of ["s_a", "s_b", "s_c"]) {
      expect(server.registry.pending(sessionId)[0]?.countdown).toEqual({
        phase: "counting",
        startedAt: clock.now(),
        visibleAt: clock.now() + GRACE_MS,
        deadlineAt: clock.now() + DEADLINE_MS,
      });
    }
  });

  it("[R3][A3] when the commit of deadlines due together fails, no asker hears and each deadline fires again", async () => {
    const clock = new FakeClock();
    let refuse = true;
    const server = startServer(`${dir.path}/plangate.db`, clock, DEFAULT_SETTINGS, (log, work) =>
      log.batch(() => {
        work();
        // As a failed COMMIT: the transaction rolls back and the batch throws.
        if (refuse) throw new StorageError("disk full", "SQLITE_FULL");
      }),
    );
    open.push(server.db);
    const outcomes = askInThreeSessions(server);
    const heard: string[] = [];
    server.log.subscribe((_sessionId, stored) => heard.push(stored.entry.kind));

    clock.advance(DEADLINE_MS);
    await flush();
    expect(outcomes).toEqual([]);
    expect(heard).toEqual([]);
    expect(kindsIn(server.log, "interaction.resolved")).toBe(0);
    expect(["s_a", "s_b", "s_c"].map((id) => server.registry.pendingCount(id))).toEqual([2, 2, 2]);

    refuse = false;
    clock.advance(1_000);
    await flush();
    expect(outcomes.sort()).toEqual(["s_a_first", "s_b_first", "s_c_first"]);
    expect(kindsIn(server.log, "interaction.resolved")).toBe(3);
  });

  it("[R3][A3] a deadline that cannot read the settings (the store is away) throws nothing and fires once the store is back", async () => {
    for (const batched of [false, true]) {
      const clock = new FakeClock();
      let away = false;
      const server = startServer(
        `${dir.path}/away-${batched}.db`,
        clock,
        () => {
          if (away) throw new StorageError("connect ECONNREFUSED", "ECONNREFUSED");
          return DEFAULT_SETTINGS;
        },
        batched ? (log, work) => log.batch(work) : undefined,
      );
      open.push(server.db);
      const outcomes = askInThreeSessions(server);
      clock.advance(DEADLINE_MS - 1);
      await flush();
      away = true;
      // A throw here would escape a timer callback: the server process would exit.
      expect(() => clock.advance(1), `batched: ${batched}`).not.toThrow();
      await flush();
      expect(outcomes).toEqual([]);

      away = false;
      clock.advance(1_000);
      await flush();
      expect(outcomes.sort(), `batched: ${batched}`).toEqual([
        "s_a_first",
        "s_b_first",
        "s_c_first",
      ]);
      expect(kindsIn(server.log, "interaction.resolved")).toBe(3);
    }
  });

  it("[R3][A3][A5] when deadlines due together pause (auto-continue off) and their commit fails, memory keeps what the log keeps and the pause is written later", async () => {
    const clock = new FakeClock();
    let refuse = false;
    const settings = { ...DEFAULT_SETTINGS };
    const server = startServer(`${dir.path}/plangate.db`, clock, settings, (log, work) =>
      log.batch(() => {
        work();
        // As a failed COMMIT: the transaction rolls back and the batch throws.
        if (refuse) throw new StorageError("disk full", "SQLITE_FULL");
      }),
    );
    open.push(server.db);
    const outcomes = askInThreeSessions(server);
    // Auto-continue is turned off, but the log refuses the pauses: the heads keep counting.
    server.db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON entries BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    settings.autoContinue = false;
    server.registry.settingsChanged(settings);
    server.db.exec("DROP TRIGGER refuse");
    const heard: string[] = [];
    server.log.subscribe((_sessionId, stored) => heard.push(stored.entry.kind));
    /** Each head's countdown as the registry shows it, and as the log has it last. */
    const heads = () =>
      ["s_a", "s_b", "s_c"].map((sessionId) => {
        const head = server.registry.pending(sessionId)[0];
        const logged = server.log
          .entriesAfter(sessionId, 0)
          .flatMap(({ entry }) =>
            entry.kind === "interaction.countdown" &&
            entry.interactionId === head?.request.interactionId
              ? [entry.countdown]
              : [],
          )
          .at(-1);
        return { shown: head?.countdown, logged };
      });

    refuse = true;
    clock.advance(DEADLINE_MS);
    await flush();
    expect(heard).toEqual([]);
    for (const { shown, logged } of heads()) {
      expect(logged?.phase).toBe("counting");
      expect(shown).toEqual(logged);
    }

    refuse = false;
    clock.advance(1_000);
    await flush();
    expect(heard).toEqual([
      "interaction.countdown",
      "interaction.countdown",
      "interaction.countdown",
    ]);
    for (const { shown, logged } of heads()) {
      expect(logged).toEqual({ phase: "paused", pausedAt: clock.now() });
      expect(shown).toEqual(logged);
    }
    expect(outcomes).toEqual([]);
    expect(["s_a", "s_b", "s_c"].map((id) => server.registry.pendingCount(id))).toEqual([2, 2, 2]);
  });

  it("[A3] a head resolves at its deadline, though writing its countdown took time", async () => {
    const clock = new FakeClock();
    const server = startServer(`${dir.path}/plangate.db`, clock, DEFAULT_SETTINGS, undefined, 1);
    open.push(server.db);
    server.log.createSession({ id: "sess_1", title: "t", model: "scripted/demo", mode: build });
    void askColour(server.registry, "call_a");

    clock.advance(DEADLINE_MS);
    await flush();
    const stored = server.log.entriesAfter("sess_1", 0);
    const countdown = stored.find((s) => s.entry.kind === "interaction.countdown")?.entry;
    const resolved = stored.find((s) => s.entry.kind === "interaction.resolved");
    expect(countdown?.kind === "interaction.countdown" && countdown.countdown.phase).toBe(
      "counting",
    );
    const deadlineAt =
      countdown?.kind === "interaction.countdown" && countdown.countdown.phase === "counting"
        ? countdown.countdown.deadlineAt
        : Number.NaN;
    expect(resolved?.at).toBe(deadlineAt);
  });
});
