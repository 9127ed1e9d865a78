import type { DatabaseLock } from "../databaseLock.ts";
import type { SqlDb } from "../sqlDb.ts";

/**
 * S2: several servers share one PostgreSQL database, so unlike a file (R11) it is not locked;
 * each server names itself in its connection's `application_name` (pid, then port), which is
 * what `pg_stat_activity` shows an operator.
 */
export function lockPostgres(db: SqlDb): DatabaseLock {
  const name = (port: number | null) =>
    port === null
      ? `plangate pid ${process.pid}, still starting`
      : `plangate pid ${process.pid}, port ${port}: http://127.0.0.1:${port}/`;
  db.run(`SET application_name = '${name(null)}'`);
  return {
    recordPort(port) {
      db.run(`SET application_name = '${name(port)}'`);
    },
    release() {},
  };
}
