import BetterSqlite3, { type Database } from "better-sqlite3";
import type { TodoItem } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { openDatabase } from "../store/database.ts";
import { SessionNotFoundError, StorageError } from "../store/errors.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { TodoStore } from "./todoStore.ts";

const build = { permissionMode: "build", planEnabled: false } as const;

const first: TodoItem[] = [
  { content: "Read the config loader", status: "completed", priority: "high" },
  { content: "Add the cache", status: "in_progress", priority: "medium" },
  { content: "Write tests", status: "pending", priority: "low" },
];

describe("todo store", () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let clock: FakeClock;
  let log: SessionLog;
  let store: TodoStore;

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(`${dir.path}/plangate.db`);
    clock = new FakeClock();
    log = new SessionLog(db, clock);
    store = new TodoStore(db, clock);
    log.createSession({ id: "s1", title: "", model: "scripted/demo", mode: build });
    log.createSession({ id: "s2", title: "", model: "scripted/demo", mode: build });
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });

  it("[T3] replaces the whole list in order and returns the old one", () => {
    expect(store.replace("s1", first)).toEqual({ oldTodos: [], todos: first });
    const second = [{ content: "Ship it", status: "pending", priority: "high" } as const];
    expect(store.replace("s1", second)).toEqual({ oldTodos: first, todos: second });
    expect(store.read("s1")).toEqual(second);
    expect(store.read("s2")).toEqual([]);
  });

  it("[T3] keeps positions as the order the list was sent in", () => {
    const reversed = [...first].reverse();
    store.replace("s1", reversed);
    expect(store.read("s1")).toEqual(reversed);
    const rows = db
      .prepare("SELECT position, content FROM todos WHERE session_id = 's1' ORDER BY position")
      .all();
    expect(rows).toEqual(reversed.map((todo, position) => ({ position, content: todo.content })));
  });

  it("[T3] touches the session's updated time", () => {
    clock.advance(5_000);
    store.replace("s1", first);
    expect(log.requireSession("s1").updatedAt).toBe(clock.now());
    expect(log.requireSession("s2").updatedAt).toBeLessThan(clock.now());
  });

  it("[T3] writes in one BEGIN IMMEDIATE transaction: delete, inserts in order, touch", () => {
    const statements: string[] = [];
    const traced = new BetterSqlite3(`${dir.path}/plangate.db`, {
      verbose: (sql) => statements.push(String(sql)),
    });
    try {
      traced.pragma("foreign_keys = ON");
      new TodoStore(traced, clock).replace("s1", first);
    } finally {
      traced.close();
    }
    const writes = statements.filter(
      (sql) => !sql.startsWith("SELECT") && !sql.startsWith("PRAGMA"),
    );
    expect(writes[0]).toBe("BEGIN IMMEDIATE");
    expect(writes.at(-1)).toBe("COMMIT");
    expect(writes.filter((sql) => sql === "BEGIN IMMEDIATE" || sql === "COMMIT")).toHaveLength(2);
    expect(writes.some((sql) => sql.startsWith("DELETE FROM todos"))).toBe(true);
    expect(writes.filter((sql) => sql.startsWith("INSERT INTO todos"))).toHaveLength(3);
    expect(writes.some((sql) => sql.startsWith("UPDATE sessions SET updated_at"))).toBe(true);
    expect(store.read("s1")).toEqual(first);
  });

  it("[T3] a write that fails part-way rolls back and leaves the old list", () => {
    store.replace("s1", first);
    const broken = [
      { content: "Fine item", status: "pending", priority: "high" },
      { content: "", status: "pending", priority: "high" },
    ] as TodoItem[];
    expect(() => store.replace("s1", broken)).toThrow(StorageError);
    expect(store.read("s1")).toEqual(first);
  });

  it("[T3] refuses a session that does not exist and writes nothing", () => {
    expect(() => store.replace("nope", first)).toThrow(SessionNotFoundError);
    expect(db.prepare("SELECT count(*) AS n FROM todos").get()).toEqual({ n: 0 });
  });

  it("[T3] deletes a session's todos with the session (cascade)", () => {
    store.replace("s1", first);
    store.replace("s2", first);
    db.prepare("DELETE FROM sessions WHERE id = ?").run("s1");
    expect(store.read("s1")).toEqual([]);
    expect(store.read("s2")).toEqual(first);
    expect(db.prepare("SELECT count(*) AS n FROM todos WHERE session_id = 's1'").get()).toEqual({
      n: 0,
    });
  });
});
