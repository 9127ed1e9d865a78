import { join } from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { packageEntry, projectRoot } from "../../paths.ts";
import type { SqlDb, SqlValue } from "../sqlDb.ts";

/** Longer than any statement plangate sends; a server that stays silent this long is gone. */
const ANSWER_TIMEOUT_MS = 30_000;

/** The worker's own limits, inside the main thread's: it gives up on a hung connection first. */
const WORKER_SHARE = 0.8;

/** The worker's answer to a statement or connection that took too long (pgSyncWorker.cjs). */
const WORKER_TIMEOUT = "PG_WORKER_TIMEOUT";

interface Reply {
  id: number;
  rows?: unknown[];
  rowCount?: number;
  connections?: number;
  error?: { message: string; code: string };
  /** The answer to a background check of whether PostgreSQL answers again. */
  probe?: boolean;
}

export interface PgSqlDbOptions {
  /** How long the main thread waits for one answer (tests shorten it). */
  answerTimeoutMs?: number;
}

/** A PostgreSQL error, with its SQLSTATE (or the driver's code) for StorageError. */
export class PgError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "PgError";
  }
}

/**
 * S1: PostgreSQL behind the same synchronous SqlDb as SQLite. The server persists an entry
 * before it announces it and decides on what it just read, all in one synchronous step; the
 * `pg` client lives on a worker thread and this thread waits for each answer (Atomics.wait),
 * as it waits for the disk with better-sqlite3. One connection, one statement at a time, so a
 * transaction is simply BEGIN … COMMIT on it.
 */
export function openPgSqlDb(url: string, options: PgSqlDbOptions = {}): SqlDb {
  const answerTimeoutMs = options.answerTimeoutMs ?? ANSWER_TIMEOUT_MS;
  const workerTimeoutMs = Math.round(answerTimeoutMs * WORKER_SHARE);
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1: replies, port2: workerReplies } = new MessageChannel();
  const pgPath = packageEntry("pg");
  const worker = new Worker(join(projectRoot, "src/server/store/postgres/pgSyncWorker.cjs"), {
    workerData: { url, pgPath, signal: signal.buffer, replies: workerReplies, workerTimeoutMs },
    transferList: [workerReplies],
  });
  worker.unref();
  let crashed: Error | undefined;
  // Seen between requests; a request that was waiting on a crashed worker times out.
  worker.on("error", (error) => {
    crashed = error;
  });
  let nextId = 0;
  let depth = 0;
  let closed = false;
  let connections = 0;
  const placeholders = new Map<string, string>();
  // A PostgreSQL that stopped answering (hung, or cut off without a reset) would hold this
  // thread, and every page and session with it, for a full timeout per statement. After one
  // timeout, statements fail at once while the worker checks in the background; the first
  // request after its check succeeds goes through again.
  let unanswering = false;

  const checkInBackground = () => {
    worker.postMessage({ probe: true, id: ++nextId });
  };

  /** Replies nobody waits for: late answers (dropped) and the background check's. */
  const drainReplies = () => {
    for (let received = receiveMessageOnPort(replies); received; ) {
      const reply = received.message as Reply;
      if (reply.probe) {
        if (reply.error) checkInBackground();
        else unanswering = false;
      }
      received = receiveMessageOnPort(replies);
    }
  };

  const timedOut = (message: string): PgError => {
    if (!unanswering) checkInBackground();
    unanswering = true;
    return new PgError(message, "PG_TIMEOUT");
  };

  const request = (message: Record<string, unknown>): Reply => {
    if (closed) throw new PgError("the PostgreSQL store is closed", "PG_CLOSED");
    if (crashed)
      throw new PgError(`the PostgreSQL thread failed: ${crashed.message}`, "PG_CRASHED");
    drainReplies();
    if (unanswering) {
      throw new PgError("PostgreSQL is not answering; waiting for it to come back", "PG_TIMEOUT");
    }
    const id = ++nextId;
    Atomics.store(signal, 0, 0);
    worker.postMessage({ ...message, id, inTransaction: depth > 0 });
    for (;;) {
      if (Atomics.wait(signal, 0, 0, answerTimeoutMs) === "timed-out") {
        throw timedOut(`PostgreSQL did not answer in ${answerTimeoutMs / 1000} s`);
      }
      Atomics.store(signal, 0, 0);
      for (let received = receiveMessageOnPort(replies); received; ) {
        const reply = received.message as Reply;
        if (reply.id === id) {
          if (reply.error?.code === WORKER_TIMEOUT) throw timedOut(reply.error.message);
          if (reply.error) throw new PgError(reply.error.message, reply.error.code);
          if (reply.connections !== undefined) connections = reply.connections;
          return reply;
        }
        // A late answer to a request that timed out is dropped.
        received = receiveMessageOnPort(replies);
      }
    }
  };

  const query = (sql: string, params: readonly SqlValue[] = []): Reply => {
    let numbered = placeholders.get(sql);
    if (numbered === undefined) {
      let n = 0;
      numbered = sql.replace(/\?/g, () => `$${++n}`);
      placeholders.set(sql, numbered);
    }
    return request({ sql: numbered, params });
  };

  const db: SqlDb = {
    dialect: "postgres",
    all: <Row>(sql: string, params?: readonly SqlValue[]) => query(sql, params).rows as Row[],
    get: <Row>(sql: string, params?: readonly SqlValue[]) =>
      query(sql, params).rows?.[0] as Row | undefined,
    run: (sql, params) => ({ changes: query(sql, params).rowCount ?? 0 }),
    exec: (sql) => {
      request({ sql });
    },
    transaction: (work) => {
      const name = `s${depth}`;
      request({ sql: depth > 0 ? `SAVEPOINT ${name}` : "BEGIN" });
      depth += 1;
      try {
        const result = work();
        // Sent while still inside, so a COMMIT on a connection that replaced a lost one fails.
        request({ sql: depth > 1 ? `RELEASE ${name}` : "COMMIT" });
        return result;
      } catch (error) {
        try {
          request({ sql: depth > 1 ? `ROLLBACK TO ${name}` : "ROLLBACK" });
        } catch {
          // the connection is gone; PostgreSQL dropped the transaction with it
        }
        throw error;
      } finally {
        depth -= 1;
      }
    },
    connections: () => connections,
    close: () => {
      if (closed) return;
      try {
        request({ close: true });
      } finally {
        closed = true;
        void worker.terminate();
      }
    },
  };
  return db;
}
