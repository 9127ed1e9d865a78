import type { Database } from "better-sqlite3";
import { DEFAULT_SETTINGS, type Settings } from "../../protocol/index.ts";
import { CallSteps } from "../sessions/callSteps.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { FakeClock } from "./fakeClock.ts";
import type { InteractionRegistry } from "./port.ts";
import { createInteractionRegistry } from "./registry.ts";
import { colourQuestion, DEADLINE_MS, flush, GRACE_MS } from "./registryHarness.ts";

const build = { permissionMode: "build", planEnabled: false } as const;

/** One server process: a database connection, its log and a registry over it. */
function startServer(path: string, clock: FakeClock, settings: Settings = DEFAULT_SETTINGS) {
  const db = openDatabase(path);
  const log = new SessionLog(db, clock);
  let nextId = 0;
  const registry = createInteractionRegistry({
    append: (sessionId, entry) => log.append(sessionId, entry),
    clock,
    settings: () => settings,
    timings: { graceMs: GRACE_MS, deadlineMs: DEADLINE_MS },
    newId: () => `int_${clock.now()}_${++nextId}`,
  });
  return { db, log, registry };
}

function askColour(registry: InteractionRegistry, toolCallId: string) {
  return registry.askQuestions(
    "sess_1",
    { toolName: "AskUserQuestion", toolCallId, questions: [colourQuestion] },
    new AbortController().signal,
  );
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
});
