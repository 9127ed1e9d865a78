import { existsSync, statSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { FakeClock } from "../interactions/fakeClock.ts";
import { tempDir } from "../testing/helpers.ts";
import { openDatabase } from "./database.ts";
import { SessionLog } from "./sessionLog.ts";
import { openStore } from "./store.ts";
import { startWalCheckpointer } from "./walCheckpointer.ts";

/** Counts the threads started, so a test can tell when one is. */
const threads = vi.hoisted(() => ({ made: 0 }));
vi.mock("node:worker_threads", async (original) => {
  const real = await original<typeof import("node:worker_threads")>();
  class CountedWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      threads.made += 1;
    }
  }
  return { ...real, Worker: CountedWorker };
});

const build = { permissionMode: "build", planEnabled: false } as const;
/** Never on its own during a test: only checkpointNow() checkpoints. */
const NEVER = 3_600_000;
const PAGE = 4096;

describe("WAL checkpoints off the server's thread", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  /** Enough entries that SQLite's own checkpoint (every 1,000 pages) would run on this thread. */
  function fill(log: SessionLog, entries = 1_500) {
    log.createSession({ id: "s", title: "s", model: "scripted/demo", mode: build });
    const text = "x".repeat(3_000);
    for (let n = 0; n < entries; n++) log.append("s", { kind: "user.message", text });
  }

  it("[R12] the server's commits never checkpoint: the log grows past SQLite's 1,000 pages until the thread copies it", async () => {
    const path = `${dir.path}/plangate.db`;
    const db = openDatabase(path);
    const checkpointer = startWalCheckpointer(db, path, { everyMs: NEVER });
    try {
      fill(new SessionLog(db, new FakeClock()));
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(1_200 * PAGE);

      const result = await checkpointer.checkpointNow();
      expect(result.log).toBeGreaterThan(1_200);
      expect(result.checkpointed).toBe(result.log);
      // What the thread copied is in the file: a reader that ignores the log sees every entry.
      checkpointer.stop();
      db.close();
      const reader = new BetterSqlite3(path, { readonly: true });
      expect(reader.prepare("SELECT count(*) AS n FROM entries").get()).toEqual({ n: 1_501 });
      reader.close();
    } finally {
      checkpointer.stop();
      if (db.open) db.close();
    }
  });

  it("[R12] stop() closes the thread's connection first, so the server's close is the last and removes the log", async () => {
    const path = `${dir.path}/plangate.db`;
    const db = openDatabase(path);
    const checkpointer = startWalCheckpointer(db, path, { everyMs: NEVER });
    fill(new SessionLog(db, new FakeClock()), 10);
    await checkpointer.checkpointNow(); // the thread's connection is open
    checkpointer.stop();
    db.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it("[R12] a server's store is checkpointed off its thread; a tool's store (no option) as SQLite does", () => {
    const path = `${dir.path}/plangate.db`;
    const autoCheckpoint = (store: ReturnType<typeof openStore>) =>
      store.db.get<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint");
    const server = openStore(path, new FakeClock(), { checkpointOffThread: true });
    expect(autoCheckpoint(server)).toEqual({ wal_autocheckpoint: 0 });
    server.close();
    const tool = openStore(path, new FakeClock());
    expect(autoCheckpoint(tool)).toEqual({ wal_autocheckpoint: 1000 });
    tool.close();
  });

  it("[R12] a server's checkpoint thread starts after its first moments, not during them (issue 15: restart)", async () => {
    const path = `${dir.path}/plangate.db`;
    const before = threads.made;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const server = openStore(path, new FakeClock(), { checkpointOffThread: true });
    try {
      expect(threads.made).toBe(before);
      vi.advanceTimersByTime(1_000);
      expect(threads.made).toBe(before + 1);
    } finally {
      vi.useRealTimers();
      server.close();
    }
    const db = openDatabase(path);
    const checkpointer = startWalCheckpointer(db, path, {
      everyMs: NEVER,
      threadAfterMs: 3_600_000,
    });
    try {
      expect(threads.made).toBe(before + 1);
      // Asked for a checkpoint before then, it starts at once.
      fill(new SessionLog(db, new FakeClock()), 10);
      const result = await checkpointer.checkpointNow();
      expect(result.checkpointed).toBe(result.log);
      expect(threads.made).toBe(before + 2);
    } finally {
      checkpointer.stop();
      db.close();
    }
  });

  it("[R12] when the checkpoint thread cannot run, SQLite's own checkpoints come back, so the log stays bounded", async () => {
    const path = `${dir.path}/plangate.db`;
    const db = openDatabase(path);
    const checkpointer = startWalCheckpointer(db, `${dir.path}/missing/plangate.db`, {
      everyMs: NEVER,
    });
    try {
      await expect(checkpointer.checkpointNow()).rejects.toThrow();
      expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
      fill(new SessionLog(db, new FakeClock()));
      expect(statSync(`${path}-wal`).size).toBeLessThan(1_200 * PAGE);
    } finally {
      checkpointer.stop();
      db.close();
    }
  });
});
