import type { Database } from "better-sqlite3";
import type { SessionEntry, StoredEntry } from "../../protocol/index.ts";
import { systemClock } from "../clock.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { tempDir } from "../testing/helpers.ts";
import { openDatabase } from "./database.ts";
import { SessionNotFoundError, StorageError } from "./errors.ts";
import { migrate, migrations } from "./migrations.ts";
import { SessionLog, titleFromPrompt } from "./sessionLog.ts";
import { SettingsStore } from "./settingsStore.ts";

const build = { permissionMode: "build", planEnabled: false } as const;

describe("session store", () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let clock: FakeClock;
  let log: SessionLog;

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(`${dir.path}/nested/dir/plangate.db`);
    clock = new FakeClock();
    log = new SessionLog(db, clock);
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });

  const create = (id: string) =>
    log.createSession({ id, title: "t", model: "scripted/demo", mode: build }).session;

  it("[W1] names an untitled session after its first real prompt, once", () => {
    const { session } = log.createSession({
      id: "s1",
      title: "",
      model: "scripted/demo",
      mode: build,
    });
    log.append(session.id, { kind: "user.message", text: "reminder", synthetic: true });
    expect(log.getSession("s1")?.title).toBe("");
    log.append(session.id, { kind: "user.message", text: `  Fix the login bug\nsteps: …` });
    log.append(session.id, { kind: "user.message", text: "something else" });
    expect(log.getSession("s1")?.title).toBe("Fix the login bug");
    expect(titleFromPrompt("x".repeat(80))).toBe(`${"x".repeat(59)}…`);
  });

  it("runs migrations once and is idempotent on reopen", () => {
    expect(db.pragma("user_version", { simple: true })).toBe(migrations.length);
    migrate(db);
    db.close();
    db = openDatabase(`${dir.path}/nested/dir/plangate.db`);
    expect(db.pragma("user_version", { simple: true })).toBe(migrations.length);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
  });

  it("applies only the migrations a database has not seen", () => {
    const ran: number[] = [];
    const steps = [
      ...migrations,
      () => {
        ran.push(1);
      },
    ];
    migrate(db, steps);
    migrate(db, steps);
    expect(ran).toEqual([1]);
    expect(db.pragma("user_version", { simple: true })).toBe(steps.length);
  });

  it("[R6] numbers entries monotonically per session and updates the session row", () => {
    create("sess_a");
    create("sess_b");
    clock.advance(10);
    const a2 = log.append("sess_a", { kind: "user.message", text: "hi" });
    const b2 = log.append("sess_b", { kind: "user.message", text: "yo" });
    const a3 = log.append("sess_a", { kind: "assistant.message", text: "hello" });
    expect([a2.seq, a3.seq, b2.seq]).toEqual([2, 3, 2]);
    const session = log.getSession("sess_a")!;
    expect(session.lastSeq).toBe(3);
    expect(session.updatedAt).toBe(clock.now());
    expect(session.createdAt).toBe(clock.now() - 10);
  });

  it("keeps model and mode of the session row in step with change entries", () => {
    create("sess_a");
    log.append("sess_a", { kind: "session.modelChanged", model: "openai/gpt" });
    log.append("sess_a", {
      kind: "session.modeChanged",
      mode: { permissionMode: "edit", planEnabled: true },
    });
    expect(log.getSession("sess_a")).toMatchObject({
      model: "openai/gpt",
      mode: { permissionMode: "edit", planEnabled: true },
    });
  });

  it("returns exactly the entries after a seq, in order", () => {
    create("sess_a");
    for (const text of ["1", "2", "3", "4"]) log.append("sess_a", { kind: "user.message", text });
    const after = log.entriesAfter("sess_a", 3);
    expect(after.map((e) => e.seq)).toEqual([4, 5]);
    expect(after[0]!.entry).toEqual({ kind: "user.message", text: "3" });
    expect(log.entriesAfter("sess_a", 5)).toEqual([]);
    expect(log.entriesAfter("sess_a", 0)[0]!.entry.kind).toBe("session.created");
  });

  it("notifies listeners after the commit with the stored entry", () => {
    create("sess_a");
    const seen: Array<[string, StoredEntry, number]> = [];
    log.subscribe((sessionId, stored) => {
      seen.push([sessionId, stored, log.getSession(sessionId)!.lastSeq]);
    });
    const stored = log.append("sess_a", { kind: "turn.started" });
    expect(seen).toEqual([["sess_a", stored, 2]]);
  });

  it("rejects invalid entries and unknown sessions without writing", () => {
    create("sess_a");
    const bogus = { kind: "user.message", text: 3 } as unknown as SessionEntry;
    expect(() => log.append("sess_a", bogus)).toThrow(TypeError);
    expect(() => log.append("sess_zz", { kind: "turn.started" })).toThrow(SessionNotFoundError);
    expect(log.getSession("sess_a")!.lastSeq).toBe(1);
  });

  it("[R6] throws StorageError on a full disk and leaves nothing half-written", () => {
    create("sess_a");
    const listener = vi.fn();
    log.subscribe(listener);
    const pages = db.pragma("page_count", { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 2}`);
    const big = "x".repeat(64 * 1024);
    let caught: unknown;
    try {
      log.append("sess_a", { kind: "user.message", text: big });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StorageError);
    expect((caught as StorageError).code).toBe("SQLITE_FULL");
    expect(listener).not.toHaveBeenCalled();
    expect(log.getSession("sess_a")!.lastSeq).toBe(1);
    expect(log.entriesAfter("sess_a", 0)).toHaveLength(1);
    db.pragma("max_page_count = 1073741823");
    expect(log.append("sess_a", { kind: "user.message", text: "small" }).seq).toBe(2);
  });

  it("lists sessions most recently updated first", () => {
    create("sess_a");
    clock.advance(5);
    create("sess_b");
    clock.advance(5);
    log.append("sess_a", { kind: "turn.started" });
    expect(log.listSessions().map((s) => s.id)).toEqual(["sess_a", "sess_b"]);
  });

  it("persists settings over defaults", () => {
    const settings = new SettingsStore(db);
    expect(settings.get()).toEqual({ autoContinue: true, theme: "system" });
    expect(settings.update({ autoContinue: false })).toEqual({
      autoContinue: false,
      theme: "system",
    });
    expect(new SettingsStore(db).get().autoContinue).toBe(false);
  });

  it("[A1] a settings update is what the next read returns, though reads are kept in memory", () => {
    const settings = new SettingsStore(db);
    expect(settings.get().theme).toBe("system");
    settings.update({ theme: "dark" });
    expect(settings.get()).toEqual({ autoContinue: true, theme: "dark" });
    settings.update({ autoContinue: false });
    expect(settings.get()).toEqual({ autoContinue: false, theme: "dark" });
  });

  it("survives a second connection reading while one writes (busy timeout)", () => {
    create("sess_a");
    const second = openDatabase(`${dir.path}/nested/dir/plangate.db`);
    const reader = new SessionLog(second, systemClock);
    log.append("sess_a", { kind: "turn.started" });
    expect(reader.entriesAfter("sess_a", 0)).toHaveLength(2);
    second.close();
  });
});
