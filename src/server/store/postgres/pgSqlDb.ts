import { join } from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { packageEntry, projectRoot } from "../../paths.ts";
import type { SqlDb, SqlValue } from "../sqlDb.ts";

/** Longer than any statement plangate sends; a server that stays silent this long is gone. */
const ANSWER_TIMEOUT_MS = 30_000;

interface Reply {
  id: number;
  rows?: unknown[];
  rowCount?: number;
  connections?: number;
  error?: { message: string; code: string };
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
export function openPgSqlDb(url: string): SqlDb {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1: replies, port2: workerReplies } = new MessageChannel();
  const pgPath = packageEntry("pg");
  const worker = new Worker(join(projectRoot, "src/server/store/postgres/pgSyncWorker.cjs"), {
    workerData: { url, pgPath, signal: signal.buffer, replies: workerReplies },
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

  const request = (message: Record<string, unknown>): Reply => {
    if (closed) throw new PgError("the PostgreSQL store is closed", "PG_CLOSED");
    if (crashed)
      throw new PgError(`the PostgreSQL thread failed: ${crashed.message}`, "PG_CRASHED");
    const id = ++nextId;
    Atomics.store(signal, 0, 0);
    worker.postMessage({ ...message, id, inTransaction: depth > 0 });
    for (;;) {
      if (Atomics.wait(signal, 0, 0, ANSWER_TIMEOUT_MS) === "timed-out") {
        throw new PgError(
          `PostgreSQL did not answer in ${ANSWER_TIMEOUT_MS / 1000} s`,
          "PG_TIMEOUT",
        );
      }
      Atomics.store(signal, 0, 0);
      // A late answer to a request that timed out is dropped.
      for (let received = receiveMessageOnPort(replies); received; ) {
        const reply = received.message as Reply;
        if (reply.id === id) {
          if (reply.error) throw new PgError(reply.error.message, reply.error.code);
          if (reply.connections !== undefined) connections = reply.connections;
          return reply;
        }
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
