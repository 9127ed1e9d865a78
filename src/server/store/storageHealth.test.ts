import { join } from "node:path";
import type { StorageHealth as Health } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { tempDir } from "../testing/helpers.ts";
import { openDatabase } from "./database.ts";
import { StorageError } from "./errors.ts";
import { PgError } from "./postgres/pgSqlDb.ts";
import { asSqlDb } from "./sqlDb.ts";
import { StorageHealth, storageProblemOf, watchedSqlDb } from "./storageHealth.ts";
import { storeOn } from "./store.ts";

const MINUTE = 60_000;

function harness(
  options: { probe?: () => void; firstProbeMs?: number; probeEveryMs?: number } = {},
) {
  const clock = new FakeClock();
  const lines: string[] = [];
  const changes: Health[] = [];
  const health = new StorageHealth({
    clock,
    log: (line) => lines.push(line),
    logEveryMs: MINUTE,
    probeEveryMs: 5_000,
    ...options,
  });
  health.subscribe((change) => changes.push(change));
  return { clock, lines, changes, health };
}

const refused = () => new PgError("connect ECONNREFUSED 10.1.2.3:5432", "ECONNREFUSED");

describe("storage health", () => {
  it("[R3][S1] tells an outage of the store from a refused statement, on both backends", () => {
    expect(storageProblemOf(Object.assign(new Error("full"), { code: "SQLITE_FULL" }))).toBe(
      "full",
    );
    expect(storageProblemOf({ code: "SQLITE_READONLY_DBMOVED" })).toBe("readOnly");
    expect(storageProblemOf({ code: "SQLITE_IOERR_WRITE" })).toBe("failed");
    expect(storageProblemOf(refused())).toBe("unreachable");
    expect(storageProblemOf(new PgError("the database system is starting up", "57P03"))).toBe(
      "unreachable",
    );
    expect(storageProblemOf(new PgError("could not extend file", "53100"))).toBe("full");
    expect(storageProblemOf(new PgError("read-only transaction", "25006"))).toBe("readOnly");
    // StorageError carries the driver's code; the cause is read too.
    expect(storageProblemOf(new StorageError("Could not record x", "SQLITE_FULL"))).toBe("full");
    expect(storageProblemOf(new Error("wrapped", { cause: refused() }))).toBe("unreachable");
    // A constraint, a bad statement, our own shutdown: the store itself is fine.
    expect(storageProblemOf({ code: "SQLITE_CONSTRAINT_TRIGGER" })).toBeUndefined();
    expect(storageProblemOf(new PgError("duplicate key", "23505"))).toBeUndefined();
    expect(storageProblemOf(new PgError("closed", "PG_CLOSED"))).toBeUndefined();
    expect(storageProblemOf(new TypeError("bug"))).toBeUndefined();
  });

  it("[R3] goes failing on the first failure and ok on the next committed write, telling listeners each change once", () => {
    const { health, changes } = harness();
    expect(health.current).toEqual({ state: "ok" });
    // A reconnect that set out before the store came back does not start an outage.
    health.failedAgain(refused());
    expect(health.current).toEqual({ state: "ok" });
    expect(health.failed(refused())).toBe(true);
    health.failedAgain(refused());
    expect(health.failed(refused())).toBe(true);
    expect(health.current).toEqual({ state: "failing", problem: "unreachable" });
    expect(health.failed(new PgError("no space left", "53100"))).toBe(true);
    expect(health.failed({ code: "SQLITE_CONSTRAINT_CHECK" })).toBe(false);
    health.wrote();
    health.wrote();
    expect(changes).toEqual([
      { state: "failing", problem: "unreachable" },
      { state: "failing", problem: "full" },
      { state: "ok" },
    ]);
  });

  it("[R3] logs one line per kind of failure per interval, with the driver's detail, then one recovery line", () => {
    const { health, lines, clock } = harness();
    // A session per second for two minutes, as the take-over loop of a server on PostgreSQL.
    for (let second = 0; second < 120; second++) {
      for (let session = 0; session < 5; session++) health.failed(refused());
      clock.advance(1_000);
    }
    health.failed(new PgError("could not write to file: No space left on device", "53100"));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      "plangate: the store cannot be reached: connect ECONNREFUSED 10.1.2.3:5432. Changes are refused until it takes writes again.",
    );
    expect(lines[1]).toContain("cannot be reached");
    expect(lines[1]).toContain("299 more like it since the last line (1 min 0 s ago)");
    expect(lines[2]).toContain("is full: could not write to file: No space left on device (53100)");
    expect(lines.join("\n")).not.toContain("    at ");
    clock.advance(3_000);
    health.wrote();
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe(
      "plangate: the store takes writes again, after 2 min 3 s (601 failed operations).",
    );
    // A new outage starts its own count and is logged at once.
    health.failed(refused());
    expect(lines).toHaveLength(5);
    expect(lines[4]).not.toContain("more like it");
  });

  it("[R3] probes with a real write while failing, not while other statements fail anyway, and stops once ok", () => {
    let down = true;
    let probes = 0;
    const { health, clock } = harness({
      probe: () => {
        probes += 1;
        if (down) {
          const error = refused();
          health.failed(error);
          throw error;
        }
      },
    });
    health.failed(refused());
    clock.advance(5_000);
    expect(probes).toBe(1);
    // Failures of their own keep the store busy: no probe on top of them.
    for (let second = 0; second < 10; second++) {
      health.failed(refused());
      clock.advance(1_000);
    }
    expect(probes).toBe(1);
    down = false;
    clock.advance(10_000);
    expect(probes).toBe(2);
    expect(health.current).toEqual({ state: "ok" });
    expect(clock.pendingTimers()).toBe(0);
  });

  it("[R3][W3] probes soon after the store fails, backs off to its pace, and waits that pace after another failure, no more", () => {
    const probedAt: number[] = [];
    const { health, clock } = harness({
      firstProbeMs: 100,
      probeEveryMs: 1_000,
      probe: () => {
        probedAt.push(clock.now() - start);
        const error = refused();
        health.failed(error);
        throw error;
      },
    });
    const start = clock.now();
    health.failed(refused());
    clock.advance(3_500);
    expect(probedAt).toEqual([100, 300, 700, 1_500, 2_500, 3_500]);
    // Someone keeps trying (and failing) until 5.2 s: the next probe is a pace after that.
    for (const at of [3_900, 4_600, 5_200]) {
      clock.advance(start + at - clock.now());
      health.failed(refused());
    }
    clock.advance(start + 6_200 - clock.now());
    expect(probedAt.slice(6)).toEqual([6_200]);
    // A new outage starts at the quick pace again.
    health.wrote();
    health.failed(refused());
    clock.advance(100);
    expect(probedAt.at(-1)).toBe(6_300);
    health.close();
  });

  it("[R3][S2] probes at once when a lost connection to PostgreSQL is made again", () => {
    let probes = 0;
    const { health, clock } = harness({ probe: () => (probes += 1) });
    health.recheck();
    expect(probes).toBe(0);
    health.failed(refused());
    clock.advance(1_000);
    health.failed(refused());
    health.recheck();
    expect(probes).toBe(1);
    expect(health.current).toEqual({ state: "ok" });
    expect(clock.pendingTimers()).toBe(0);
  });

  it("[R3][S1] sees a store that fills up and makes room again through every statement of the log", () => {
    const dir = tempDir();
    const database = openDatabase(join(dir.path, "small.db"));
    try {
      const clock = new FakeClock();
      const lines: string[] = [];
      const store = storeOn(asSqlDb(database), "small.db", clock, {
        clock,
        log: (line) => lines.push(line),
        firstProbeMs: 5_000,
        probeEveryMs: 5_000,
      });
      const changes: Health[] = [];
      store.health.subscribe((change) => changes.push(change));
      store.log.createSession({
        id: "sess_a",
        title: "",
        model: "scripted/demo",
        mode: { permissionMode: "build", planEnabled: false },
      });
      const pages = database.pragma("page_count", { simple: true }) as number;
      database.pragma(`max_page_count = ${pages + 2}`);
      const big = "x".repeat(64 * 1024);
      expect(() => store.log.append("sess_a", { kind: "user.message", text: big })).toThrow(
        StorageError,
      );
      expect(() => store.log.append("sess_a", { kind: "user.message", text: big })).toThrow(
        StorageError,
      );
      expect(store.health.current).toEqual({ state: "failing", problem: "full" });
      expect(lines).toEqual([
        "plangate: the store is full: database or disk is full (SQLITE_FULL). Changes are refused until it takes writes again.",
      ]);
      // Reads go on, and say nothing either way.
      expect(store.log.entriesAfter("sess_a", 0)).toHaveLength(1);
      expect(store.health.current.state).toBe("failing");
      // Room again; nobody writes: the probe finds out.
      database.pragma("max_page_count = 1073741823");
      clock.advance(5_000);
      expect(changes).toEqual([{ state: "failing", problem: "full" }, { state: "ok" }]);
      expect(lines[1]).toMatch(
        /^plangate: the store takes writes again, after 5 s \(2 failed operations\)\.$/,
      );
      // The probe's row is not a setting.
      expect(store.settings.get()).not.toHaveProperty("plangate.storageProbe");
      store.close();
    } finally {
      dir.remove();
    }
  });

  it("[R3][W3] on SQLite, a store that takes writes again is seen within a second, however long it refused them and whoever tried", () => {
    const dir = tempDir();
    const database = openDatabase(join(dir.path, "refusing.db"));
    try {
      const clock = new FakeClock();
      // The store's own pace for SQLite: no probe options.
      const store = storeOn(asSqlDb(database), "refusing.db", clock, { clock, log: () => {} });
      const session = { title: "", model: "scripted/demo" };
      const mode = { permissionMode: "build", planEnabled: false } as const;
      const create = (id: string) => store.log.createSession({ id, ...session, mode });
      const refuse = (on: boolean) => store.db.exec(`PRAGMA query_only = ${on ? "ON" : "OFF"}`);
      /** How long after the store takes writes again its health says so. */
      const recoveryMs = () => {
        refuse(false);
        const since = clock.now();
        while (store.health.current.state !== "ok" && clock.now() - since < 60_000)
          clock.advance(50);
        return clock.now() - since;
      };

      // A real refusal of every write, the probe's too: a read-only store for ten minutes.
      refuse(true);
      expect(() => create("sess_a")).toThrow(StorageError);
      expect(store.health.current).toEqual({ state: "failing", problem: "readOnly" });
      clock.advance(10 * MINUTE);
      expect(store.health.current.state).toBe("failing");
      expect(recoveryMs()).toBeLessThanOrEqual(1_000);

      // Someone kept trying for half a minute, gave up, and the store came back just after.
      refuse(true);
      for (let tries = 0; tries < 40; tries++) {
        expect(() => create(`sess_b${tries}`)).toThrow(StorageError);
        clock.advance(750);
      }
      clock.advance(300);
      expect(recoveryMs()).toBeLessThanOrEqual(1_000);
      store.close();
    } finally {
      dir.remove();
    }
  });

  it("[R3] counts a statement that fails inside a transaction once, and a transaction that wrote nothing is no recovery", () => {
    const { health, lines, changes } = harness();
    const database = openDatabase(":memory:");
    const db = watchedSqlDb(asSqlDb(database), health);
    const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    expect(() =>
      db.transaction(() => {
        db.get("SELECT 1");
        throw full;
      }),
    ).toThrow(full);
    expect(lines).toHaveLength(1);
    db.transaction(() => db.run("UPDATE settings SET value = value WHERE key = 'none'"));
    expect(health.current.state).toBe("failing");
    db.transaction(() => db.run("INSERT INTO settings (key, value) VALUES ('k', '1')"));
    expect(changes).toEqual([{ state: "failing", problem: "full" }, { state: "ok" }]);
    database.close();
  });
});
