import { join } from "node:path";
import type { Database } from "better-sqlite3";
import type { ExecutionMode } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { openDatabase } from "../store/database.ts";
import { StorageError } from "../store/errors.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { ExecutionStates } from "./executionState.ts";

const build: ExecutionMode = { permissionMode: "build", planEnabled: false };

describe("execution state: mode changes (P1, P4)", () => {
  let dir: ReturnType<typeof tempDir>;
  let dbPath: string;
  let db: Database;
  let log: SessionLog;
  let states: ExecutionStates;

  const open = () => {
    db = openDatabase(dbPath);
    log = new SessionLog(db, new FakeClock());
    states = new ExecutionStates(log);
  };
  const create = (mode = build) =>
    log.createSession({ id: "sess_1", title: "", model: "m", mode }).session.id;

  beforeEach(() => {
    dir = tempDir();
    dbPath = join(dir.path, "plangate.db");
    open();
  });
  afterEach(() => {
    states.dispose();
    db.close();
    dir.remove();
  });

  it("[P4] stores the change as an entry first, then applies it, and only then broadcasts it", () => {
    const id = create();
    const seen: Array<{ stored: number; inMemory: boolean }> = [];
    // Subscribed after the execution state, like the WebSocket router.
    log.subscribe((sessionId, stored) => {
      if (stored.entry.kind !== "session.modeChanged") return;
      const row = log.entriesAfter(sessionId, stored.seq - 1).length;
      seen.push({ stored: row, inMemory: states.get(sessionId).planEnabled });
    });
    expect(states.setPlan(id, true)).toEqual({ permissionMode: "build", planEnabled: true });
    expect(seen).toEqual([{ stored: 1, inMemory: true }]);
    expect(log.requireSession(id).mode).toEqual({ permissionMode: "build", planEnabled: true });
  });

  it("[P4] a failed write changes nothing: not the memory, not the row, and nothing is broadcast", () => {
    const id = create({ permissionMode: "edit", planEnabled: false });
    const broadcast: string[] = [];
    log.subscribe((_, stored) => broadcast.push(stored.entry.kind));
    db.exec(`CREATE TRIGGER disk_full BEFORE INSERT ON entries
             WHEN NEW.kind = 'session.modeChanged'
             BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;`);
    expect(() => states.setPlan(id, true)).toThrow(StorageError);
    expect(() => states.change(id, { permissionMode: "yolo", planEnabled: false })).toThrow(
      StorageError,
    );
    expect(states.get(id)).toEqual({ permissionMode: "edit", planEnabled: false });
    expect(log.requireSession(id).mode).toEqual({ permissionMode: "edit", planEnabled: false });
    expect(log.entriesAfter(id, 0).map((s) => s.entry.kind)).toEqual(["session.created"]);
    expect(broadcast).toEqual([]);
  });

  it("[P1] leaving plan returns to the permission mode from before", () => {
    const id = create({ permissionMode: "yolo", planEnabled: false });
    states.setPlan(id, true);
    expect(states.get(id)).toEqual({ permissionMode: "yolo", planEnabled: true });
    expect(states.setPlan(id, false)).toEqual({ permissionMode: "yolo", planEnabled: false });
  });

  it("records nothing when the mode does not change", () => {
    const id = create();
    states.change(id, { ...build });
    states.setPlan(id, false);
    expect(log.entriesAfter(id, 0)).toHaveLength(1);
  });

  it("[P1] is restored from the log after a restart", () => {
    const id = create();
    states.change(id, { permissionMode: "edit", planEnabled: false });
    states.setPlan(id, true);
    states.dispose();
    db.close();
    open();
    expect(states.get(id)).toEqual({ permissionMode: "edit", planEnabled: true });
  });

  it("[P1] reads a legacy stored plan mode, in the log and in the sessions table", () => {
    const id = create();
    db.prepare("INSERT INTO entries (session_id, seq, at, kind, body) VALUES (?, 2, 0, ?, ?)").run(
      id,
      "session.modeChanged",
      JSON.stringify({ kind: "session.modeChanged", mode: "plan" }),
    );
    db.prepare(
      "UPDATE sessions SET permission_mode = 'plan', plan_enabled = 0, last_seq = 2",
    ).run();
    states.dispose();
    db.close();
    open();
    expect(states.get(id)).toEqual({ permissionMode: "build", planEnabled: true });
    expect(log.requireSession(id).mode).toEqual({ permissionMode: "build", planEnabled: true });
    expect(log.entriesAfter(id, 1)[0]!.entry).toEqual({
      kind: "session.modeChanged",
      mode: { permissionMode: "build", planEnabled: true },
    });
  });
});
