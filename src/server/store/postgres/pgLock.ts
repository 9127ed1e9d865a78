import type { DatabaseLock } from "../databaseLock.ts";
import type { SqlDb } from "../sqlDb.ts";

/** The advisory lock key every plangate server on a database takes: "plgs". */
const SERVER_LOCK = 0x706c6773;

/** R11 on PostgreSQL: another server holds the database; the message says which one. */
export class PostgresInUseError extends Error {
  constructor(holder: string | undefined, location: string) {
    super(
      `another plangate (${holder ?? "starting right now"}) is already serving the database ` +
        `${location}. Use that one, stop it first, or give this one another database with --db.`,
    );
    this.name = "PostgresInUseError";
  }
}

/**
 * R11 on PostgreSQL: a session-level advisory lock on the store's own connection. It goes
 * with the connection, so a killed server frees the database at once; the holder names itself
 * in its `application_name`, which a second server reads to say who holds it.
 */
export function lockPostgres(db: SqlDb, location: string): DatabaseLock {
  const taken = db.get<{ ok: boolean }>("SELECT pg_try_advisory_lock(?) AS ok", [SERVER_LOCK]);
  if (!taken?.ok) {
    const holder = db.get<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.objid = ? AND l.database = (
         SELECT oid FROM pg_database WHERE datname = current_database())`,
      [SERVER_LOCK],
    );
    throw new PostgresInUseError(holder?.name.replace(/^plangate /, ""), location);
  }
  const name = (port: number | null) =>
    port === null
      ? `plangate pid ${process.pid}, still starting`
      : `plangate pid ${process.pid}, port ${port}: http://127.0.0.1:${port}/`;
  db.run(`SET application_name = '${name(null)}'`);
  return {
    recordPort(port) {
      db.run(`SET application_name = '${name(port)}'`);
    },
    release() {
      try {
        db.run("SELECT pg_advisory_unlock(?)", [SERVER_LOCK]);
      } catch {
        // the connection is gone, and the lock with it
      }
    },
  };
}
