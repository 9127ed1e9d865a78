import type { StorageHealth as Health, StorageProblem } from "../../protocol/index.ts";
import type { Clock, TimerHandle } from "../clock.ts";
import { codeOf } from "./errors.ts";
import type { SqlDb } from "./sqlDb.ts";

/** Socket-level failures of the connection to a PostgreSQL server (and the pg worker's own). */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "PG_TIMEOUT",
  "PG_CRASHED",
  "PG_CONNECTION_LOST",
  // The worker's code for a driver error without one: "Connection terminated unexpectedly".
  "PG_ERROR",
  // admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down)
  "57P01",
  "57P02",
  "57P03",
]);

function problemOfCode(code: string): StorageProblem | undefined {
  if (code.startsWith("SQLITE_")) {
    if (/^SQLITE_FULL/.test(code)) return "full";
    if (/^SQLITE_(READONLY|PERM)/.test(code)) return "readOnly";
    if (/^SQLITE_(IOERR|CORRUPT|CANTOPEN|NOTADB|BUSY|LOCKED|PROTOCOL|NOMEM|NOLFS)/.test(code))
      return "failed";
    // Constraints, SQL errors: this statement was wrong, the store itself is fine.
    return undefined;
  }
  if (UNREACHABLE_CODES.has(code) || code.startsWith("08")) return "unreachable";
  // disk_full; read_only_sql_transaction, insufficient_privilege
  if (code === "53100") return "full";
  if (code === "25006" || code === "42501") return "readOnly";
  // insufficient resources, system (I/O) errors, corrupted data or index
  if (/^(53|58)/.test(code) || code === "XX001" || code === "XX002") return "failed";
  return undefined;
}

/**
 * R3/S1: whether an error says the store cannot take writes (and why), as opposed to one
 * statement being refused (a constraint) or a logical outcome. Reads the driver's code, on the
 * error itself (SqliteError, PgError, StorageError's copy) or on its causes.
 */
export function storageProblemOf(error: unknown): StorageProblem | undefined {
  let current = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = codeOf(current);
    const problem = code === "" ? undefined : problemOfCode(code);
    if (problem) return problem;
    current = "cause" in current ? current.cause : undefined;
  }
  return undefined;
}

/** The error was the store failing; StorageHealth has logged it, so callers need not. */
export function isStorageFailure(error: unknown): boolean {
  return storageProblemOf(error) !== undefined;
}

export interface StorageHealthOptions {
  /** Wall-clock time: the log's intervals and the probe's pace, never a session's test clock. */
  clock: Clock;
  /**
   * Writes something small for real. Tried while failing, so recovery shows even when nobody
   * writes; it reports through the watched SqlDb like any write.
   */
  probe?: () => void;
  /** One line per failure kind per interval. Default one minute. */
  logEveryMs?: number;
  /**
   * The first probe's wait once the store fails; each failed probe doubles it, up to
   * `probeEveryMs`. Default `probeEveryMs` (an even pace).
   */
  firstProbeMs?: number;
  /** The longest wait between probes, and so how late recovery can show. Default 5 s. */
  probeEveryMs?: number;
  log?: (line: string) => void;
}

const DEFAULT_LOG_EVERY_MS = 60_000;
const DEFAULT_PROBE_EVERY_MS = 5_000;

const PROBLEM_WORDS: Record<StorageProblem, string> = {
  full: "is full",
  readOnly: "refuses writes (read-only)",
  unreachable: "cannot be reached",
  failed: "is failing",
};

interface KindLog {
  loggedAt: number;
  /** Failures of this kind since its last line. */
  since: number;
}

/**
 * R3/W3: whether the server can store changes right now, told to the pages (`storage.changed`)
 * and to the log. Any failed statement whose error names the store (storageProblemOf) makes it
 * "failing"; the next write that commits, one of the server's own or the probe's, makes it
 * "ok" again. During an outage the log gets one line per kind of failure per interval, with
 * the driver's detail, and one line when it is over.
 */
export class StorageHealth {
  private health: Health = { state: "ok" };
  private readonly listeners = new Set<(health: Health) => void>();
  private readonly kinds = new Map<StorageProblem, KindLog>();
  private failingSince = 0;
  private lastFailureAt = 0;
  private failures = 0;
  private probeTimer: TimerHandle | undefined;
  private closed = false;
  private readonly logEveryMs: number;
  private readonly firstProbeMs: number;
  private readonly probeEveryMs: number;
  private probeDelay: number;
  private readonly log: (line: string) => void;

  constructor(private readonly options: StorageHealthOptions) {
    this.logEveryMs = options.logEveryMs ?? DEFAULT_LOG_EVERY_MS;
    this.probeEveryMs = options.probeEveryMs ?? DEFAULT_PROBE_EVERY_MS;
    this.firstProbeMs = Math.min(options.firstProbeMs ?? this.probeEveryMs, this.probeEveryMs);
    this.probeDelay = this.firstProbeMs;
    this.log = options.log ?? ((line) => console.error(line));
  }

  get current(): Health {
    return this.health;
  }

  /** Listeners hear every change; the returned function unsubscribes. */
  subscribe(listener: (health: Health) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A statement failed. Returns whether the store was the cause (then it is logged here). */
  failed(error: unknown): boolean {
    const problem = storageProblemOf(error);
    if (!problem || this.closed) return problem !== undefined;
    const now = this.options.clock.now();
    this.failures += 1;
    this.lastFailureAt = now;
    if (this.health.state === "ok") {
      this.failingSince = now;
      this.probeDelay = this.firstProbeMs;
    }
    this.logFailure(problem, error, now);
    if (this.health.state !== "failing" || this.health.problem !== problem) {
      this.change({ state: "failing", problem });
    }
    this.scheduleProbe();
    return true;
  }

  /**
   * Another try of something that failed failed too (a reconnect): it keeps an outage going
   * but never starts one, since it may have set out before the store came back.
   */
  failedAgain(error: unknown): void {
    if (this.health.state === "failing") this.failed(error);
  }

  /** A write committed: the store takes writes (again). */
  wrote(): void {
    if (this.health.state === "ok") return;
    const now = this.options.clock.now();
    this.log(
      `plangate: the store takes writes again, after ${duration(now - this.failingSince)} (${this.failures} failed ${this.failures === 1 ? "operation" : "operations"}).`,
    );
    this.kinds.clear();
    this.failures = 0;
    this.stopProbe();
    this.change({ state: "ok" });
  }

  /** Something suggests the store is back (a lost connection made again): probe now. */
  recheck(): void {
    if (this.health.state === "ok" || this.closed) return;
    this.stopProbe();
    this.runProbe();
  }

  close(): void {
    this.closed = true;
    this.stopProbe();
    this.listeners.clear();
  }

  private change(health: Health): void {
    this.health = health;
    for (const listener of this.listeners) {
      try {
        listener(health);
      } catch (error) {
        console.error("plangate: a storage health listener failed:", error);
      }
    }
  }

  private logFailure(problem: StorageProblem, error: unknown, now: number): void {
    const kind = this.kinds.get(problem);
    if (kind && now - kind.loggedAt < this.logEveryMs) {
      kind.since += 1;
      return;
    }
    const more =
      kind && kind.since > 0
        ? ` ${kind.since} more like it since the last line (${duration(now - kind.loggedAt)} ago).`
        : "";
    this.kinds.set(problem, { loggedAt: now, since: 0 });
    this.log(
      `plangate: the store ${PROBLEM_WORDS[problem]}: ${detailOf(error)}. Changes are refused until it takes writes again.${more}`,
    );
  }

  private scheduleProbe(delayMs = this.probeDelay): void {
    if (!this.options.probe || this.probeTimer !== undefined || this.closed) return;
    this.probeTimer = this.options.clock.setTimeout(() => {
      this.probeTimer = undefined;
      if (this.health.state === "ok" || this.closed) return;
      // Another statement failed just now: the store is being tried anyway. The probe waits
      // its pace after that failure, not after this check, or recovery showed a pace late.
      const since = this.options.clock.now() - this.lastFailureAt;
      if (since < this.probeDelay) {
        this.scheduleProbe(this.probeDelay - since);
        return;
      }
      // A failing PostgreSQL is not hammered: each probe that fails waits longer, to a cap.
      this.probeDelay = Math.min(this.probeDelay * 2, this.probeEveryMs);
      this.runProbe();
    }, delayMs);
    // A Node timer must not keep a process alive that has nothing else to do.
    (this.probeTimer as { unref?: () => void }).unref?.();
  }

  private runProbe(): void {
    const probe = this.options.probe;
    if (!probe) return;
    try {
      probe();
      this.wrote();
    } catch {
      // reported through the watched SqlDb
      this.scheduleProbe();
    }
  }

  private stopProbe(): void {
    if (this.probeTimer === undefined) return;
    this.options.clock.clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
  }
}

/** The driver's own words and code, for the log only: they may name hosts, ports and paths. */
function detailOf(error: unknown): string {
  let root = error;
  while (root instanceof Error && root.cause instanceof Error) root = root.cause;
  const message = root instanceof Error ? root.message : String(root);
  const code = codeOf(root);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The probe's row: settings keys the settings store does not know are ignored by its reads. */
export const PROBE_SETTING_KEY = "plangate.storageProbe";

/** A real write, committed: what the probe does while the store is failing. */
export function writeProbe(db: SqlDb, now: number): void {
  db.transaction(() => {
    db.run(
      "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      [PROBE_SETTING_KEY, JSON.stringify(now)],
    );
  });
}

/**
 * Every statement of the store passes here: a failure is told to `health` (which decides if
 * it was the store), and a write that commits with changes tells it the store takes writes.
 * An error rethrown by the transaction around its statement counts once.
 */
export function watchedSqlDb(db: SqlDb, health: StorageHealth): SqlDb {
  let depth = 0;
  let changed = false;
  const reported = new WeakSet<object>();
  const report = (error: unknown) => {
    if (typeof error === "object" && error !== null) {
      if (reported.has(error)) return;
      reported.add(error);
    }
    health.failed(error);
  };
  const call = <T>(work: () => T, isWrite: (result: T) => boolean): T => {
    const outermost = depth === 0;
    if (outermost) changed = false;
    depth += 1;
    let result: T;
    try {
      result = work();
    } catch (error) {
      report(error);
      throw error;
    } finally {
      depth -= 1;
    }
    if (isWrite(result)) changed = true;
    if (outermost && changed) health.wrote();
    return result;
  };
  const watched: SqlDb = {
    dialect: db.dialect,
    all: (sql, params) => call(() => db.all(sql, params), never),
    get: (sql, params) => call(() => db.get(sql, params), never),
    run: (sql, params) =>
      call(
        () => db.run(sql, params),
        (result) => result.changes > 0,
      ),
    exec: (sql) => call(() => db.exec(sql), never),
    transaction: (work) => call(() => db.transaction(work), never),
    close: () => db.close(),
  };
  if (db.connections) watched.connections = () => db.connections?.() ?? 0;
  return watched;
}

const never = () => false;
